package dev.agentpay.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

class SoakReportTest {

    /** Minutes 0..n of one column. */
    private static List<Map<String, Double>> rows(int n, String column, IntToDoubleFunction f) {
        List<Map<String, Double>> rows = new ArrayList<>();
        for (int m = 0; m <= n; m++) {
            Map<String, Double> r = SoakReport.row();
            r.put("minute", (double) m);
            r.put(column, f.applyAsDouble(m));
            rows.add(r);
        }
        return rows;
    }

    private static SoakReport.Judged only(List<Map<String, Double>> rows) {
        List<SoakReport.Judged> v = SoakReport.judge(rows);
        assertThat(v).hasSize(1);
        return v.get(0);
    }

    @Test
    void thirtyMinutesJudgeMinuteTenAgainstTheMaximumOfTheLastTwenty() {
        // grows for ten minutes, then a plateau with a peak 9 % above minute 10
        var rows = rows(30, "size_bytes:mandate.processed_event", m -> m <= 10 ? m * 10e6 : m == 25 ? 109e6 : 100e6);
        SoakReport.Judged j = only(rows);
        assertThat(j.start()).isEqualTo(100e6);
        assertThat(j.max()).isEqualTo(109e6);
        assertThat(j.pass()).isTrue();
        assertThat(SoakReport.Window.of(30)).isEqualTo(new SoakReport.Window(10, 20, false));
    }

    @Test
    void growthOverTenPercentAboveTheFloorFails() {
        var rows = rows(30, "rows:webhook.webhook_delivery", m -> 100_000 + m * 1_000);
        SoakReport.Judged j = only(rows);
        assertThat(j.growth()).isCloseTo(0.2 / 1.1, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(j.pass()).isFalse();
        assertThat(SoakReport.passed(List.of(j))).isFalse();
    }

    @Test
    void aValueNearZeroIsComparedWithTheAbsoluteFloor() {
        // lag 0 at minute 10, then up to 800: infinite growth, within the 1,000 records floor
        var ok = rows(30, "lag:webhook-dispatcher", m -> m > 10 && m % 3 == 0 ? 800 : 0);
        assertThat(only(ok).pass()).isTrue();
        var bad = rows(30, "lag:webhook-dispatcher", m -> m > 10 ? 5_000 : 0);
        assertThat(only(bad).pass()).isFalse();
    }

    @Test
    void aShortRunJudgesItsLastHalf() {
        assertThat(SoakReport.Window.of(4)).isEqualTo(new SoakReport.Window(2, 2, true));
        assertThat(SoakReport.Window.of(1)).isEqualTo(new SoakReport.Window(0, 1, true));
        var rows = rows(4, "create_p99_ms", m -> m < 2 ? 500 : 40);
        SoakReport.Judged j = only(rows);
        assertThat(j.start()).isEqualTo(40);
        assertThat(j.pass()).isTrue();
        assertThat(SoakReport.markdown(rows, List.of(j), "h")).contains("last half");
    }

    @Test
    void reportedSeriesAreNotJudged() {
        var rows = rows(30, "size_bytes:mandate.idempotency_record", m -> m * 1e6);
        rows.forEach(r -> {
            r.put("business_size_bytes:mandate.mandate", r.get("minute") * 1e7);
            r.put("heap_used_bytes:mandate-service", r.get("minute") * 1e7);
            r.put("creates_ok", 18_000.0);
        });
        assertThat(SoakReport.judge(rows)).isEmpty();
        String md = SoakReport.markdown(rows, SoakReport.judge(rows), "h");
        assertThat(md).contains("PASS").contains("`size_bytes:mandate.idempotency_record`").contains("`business_size_bytes:mandate.mandate`");
    }

    @Test
    void csvAndSvgCarryEverySeries() {
        var rows = rows(5, "create_p99_ms", m -> m == 0 ? Double.NaN : 20 + m);
        rows.forEach(r -> r.put("heap_after_gc_bytes:mandate-service", 50e6));
        rows.get(3).put("lag:anchor-service", 12.0);
        String csv = SoakReport.csv(rows);
        assertThat(csv.lines().findFirst()).hasValue("minute,create_p99_ms,heap_after_gc_bytes:mandate-service,lag:anchor-service");
        assertThat(csv.lines().skip(1).findFirst()).hasValue("0,,50000000,");
        assertThat(SoakReport.csv(SoakReport.parseCsv(csv))).isEqualTo(csv);
        String svg = SoakReport.svg(rows, "t <&>");
        assertThat(svg).startsWith("<svg").endsWith("</svg>\n").contains("t &lt;&amp;&gt;").contains("mandate-service")
                .contains("anchor-service").contains("<polyline");
    }

    @Test
    void niceAxisMaxima() {
        assertThat(SoakReport.niceCeil(0)).isEqualTo(1);
        assertThat(SoakReport.niceCeil(87)).isEqualTo(100);
        assertThat(SoakReport.niceCeil(120)).isEqualTo(200);
        assertThat(SoakReport.niceCeil(2.2)).isEqualTo(2.5);
    }
}
