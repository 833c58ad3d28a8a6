package dev.agentpay.bench.soak;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What a soak run's samples say: the CSV, the verdict (which judged series grew by more than 10 % over the judged
 * window) and a self-contained SVG of the curves. Pure functions over the rows ({@code rows.get(m)} is the sample
 * taken at minute {@code m}; minute 0 is taken before any load), so they are tested without a stack.
 *
 * <p>Series are named by kind: {@code create_p99_ms}; {@code heap_after_gc_bytes:<service>};
 * {@code size_bytes:<db>.<table>} and {@code rows:<db>.<table>}; {@code lag:<consumer group>};
 * {@code backlog:<db>.webhook_delivery_pending}; everything else is reported, not judged.
 */
public final class SoakReport {

    /** Tables that housekeeping keeps bounded; their size and row count are judged (but see {@link #UNJUDGED_TABLES}). */
    public static final List<String> HOUSEKEEPING_TABLES = List.of("processed_event", "outbox_event", "webhook_delivery",
            "webhook_attempt", "webhook_event", "idempotency_record");

    /** Reported, not judged: mandate-service keeps idempotency records 24 h by design (the soak sends no key). */
    public static final Set<String> UNJUDGED_TABLES = Set.of("idempotency_record");

    /** Growth allowed over the judged window. */
    public static final double LIMIT = 0.10;

    /** A judged kind of series: which columns, the absolute floor under which growth is noise, its unit. */
    record Rule(String name, Predicate<String> matches, double floor, String floorText) {
    }

    static final List<Rule> RULES = List.of(
            new Rule("create p99", c -> c.equals("create_p99_ms"), 5, "5 ms"),
            new Rule("heap after GC", c -> c.startsWith("heap_after_gc_bytes:"), 4 * mib(), "4 MiB"),
            new Rule("table size", c -> c.startsWith("size_bytes:") && housekeeping(c), mib(), "1 MiB"),
            new Rule("table rows", c -> c.startsWith("rows:") && housekeeping(c), 1000, "1,000 rows"),
            new Rule("consumer lag", c -> c.startsWith("lag:"), 1000, "1,000 records"),
            new Rule("delivery backlog", c -> c.startsWith("backlog:"), 1000, "1,000 deliveries"));

    private SoakReport() {
    }

    private static double mib() {
        return 1024.0 * 1024.0;
    }

    private static boolean housekeeping(String column) {
        String table = column.substring(column.lastIndexOf('.') + 1);
        return HOUSEKEEPING_TABLES.contains(table) && !UNJUDGED_TABLES.contains(table);
    }

    static Rule rule(String column) {
        return RULES.stream().filter(r -> r.matches().test(column)).findFirst().orElse(null);
    }

    /** The judged window: its first minute (the reference) and its length; the last 20 minutes, or the last half of a shorter run. */
    record Window(int start, int length, boolean shortened) {
        static Window of(int minutes) {
            if (minutes >= 20) {
                return new Window(minutes - 20, 20, false);
            }
            int len = Math.max(1, minutes / 2);
            return new Window(minutes - len, len, true);
        }
    }

    /** One series' verdict. {@code pass} is null when there is no data to judge. */
    record Judged(String column, String rule, String floorText, double start, double max, Boolean pass) {
        double growth() {
            return start == 0 ? (max == 0 ? 0 : Double.POSITIVE_INFINITY) : (max - start) / start;
        }
    }

    /** Every column in first-seen order. */
    static List<String> columns(List<Map<String, Double>> rows) {
        Set<String> cols = new LinkedHashSet<>();
        rows.forEach(r -> cols.addAll(r.keySet()));
        return new ArrayList<>(cols);
    }

    static String csv(List<Map<String, Double>> rows) {
        List<String> cols = columns(rows);
        StringBuilder sb = new StringBuilder(String.join(",", cols)).append('\n');
        for (Map<String, Double> r : rows) {
            List<String> cells = new ArrayList<>();
            for (String c : cols) {
                Double v = r.get(c);
                cells.add(v == null || v.isNaN() ? "" : num(v));
            }
            sb.append(String.join(",", cells)).append('\n');
        }
        return sb.toString();
    }

    /** {@link #csv} read back: a blank cell is NaN (no value), as when it was written. */
    static List<Map<String, Double>> parseCsv(String text) {
        List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
        String[] cols = lines.get(0).split(",", -1);
        List<Map<String, Double>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            Map<String, Double> r = row();
            for (int i = 0; i < cols.length && i < cells.length; i++) {
                r.put(cols[i], cells[i].isEmpty() ? Double.NaN : Double.parseDouble(cells[i]));
            }
            rows.add(r);
        }
        return rows;
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3f", v);
    }

    /**
     * Judges every judged column: pass when the maximum over minutes start+1..N is at most the value at start × 1.10, or
     * exceeds it by no more than the rule's floor.
     */
    static List<Judged> judge(List<Map<String, Double>> rows) {
        int n = rows.size() - 1;
        Window w = Window.of(n);
        List<Judged> out = new ArrayList<>();
        for (String c : columns(rows)) {
            Rule rule = rule(c);
            if (rule == null) {
                continue;
            }
            double start = value(rows, w.start(), c);
            double max = Double.NaN;
            for (int m = w.start() + 1; m <= n; m++) {
                double v = value(rows, m, c);
                if (!Double.isNaN(v)) {
                    max = Double.isNaN(max) ? v : Math.max(max, v);
                }
            }
            Boolean pass = Double.isNaN(start) || Double.isNaN(max) ? null
                    : max <= start * (1 + LIMIT) || max - start <= rule.floor();
            out.add(new Judged(c, rule.name(), rule.floorText(), start, max, pass));
        }
        return out;
    }

    private static double value(List<Map<String, Double>> rows, int minute, String column) {
        if (minute < 0 || minute >= rows.size()) {
            return Double.NaN;
        }
        Double v = rows.get(minute).get(column);
        return v == null ? Double.NaN : v;
    }

    static boolean passed(List<Judged> verdict) {
        return verdict.stream().noneMatch(j -> Boolean.FALSE.equals(j.pass()));
    }

    /** The verdict as markdown: the definition, the per-minute load, the judged series and the reported ones. */
    static String markdown(List<Map<String, Double>> rows, List<Judged> verdict, String header) {
        int n = rows.size() - 1;
        Window w = Window.of(n);
        StringBuilder sb = new StringBuilder("# Soak verdict\n\n").append(header).append("\n\n");
        sb.append("**Judged window:** ").append(w.shortened()
                ? "this run is shorter than 20 minutes, so the last half of it is judged instead of the last 20 minutes: "
                : "the last 20 minutes: ")
                .append("the reference is the sample at minute ").append(w.start()).append(", the window minutes ")
                .append(w.start() + 1).append(" to ").append(n).append(".\n\n");
        sb.append("**Definition:** for each judged series, growth = (maximum over minutes ").append(w.start() + 1).append("..")
                .append(n).append(" − value at minute ").append(w.start()).append(") / value at minute ").append(w.start())
                .append(". A series passes when growth ≤ 10 %, or when the maximum exceeds the reference by no more than the")
                .append(" series' absolute floor (so noise on a value near zero, e.g. a lag of 0, does not fail it): create p99")
                .append(" 5 ms, heap after GC 4 MiB, table size 1 MiB, table rows 1,000, consumer lag 1,000 records, pending")
                .append(" webhook deliveries 1,000.")
                .append(" Judged: create p99 (open loop, from the intended start), each service's heap after GC")
                .append(" (`jvm_gc_live_data_size_bytes`, the old generation after the last major GC, each service being asked")
                .append(" for a full GC just before unless `SOAK_FULL_GC=0`; heap used where no major GC happened yet), the size")
                .append(" (`pg_total_relation_size`) and row count of each housekeeping table")
                .append(" (`processed_event`, `outbox_event`, `webhook_delivery`, `webhook_attempt`, `webhook_event`) and the")
                .append(" lag of each consumer group (committed offsets vs end offsets, summed over its partitions) and the")
                .append(" webhook deliveries waiting to be sent (`webhook_delivery` rows `pending`). Reported, not")
                .append(" judged: `idempotency_record` (kept 24 h by design; the soak sends no Idempotency-Key), the business")
                .append(" tables and databases (they grow by design), heap used, throughput, settlement, restarts.\n\n");
        long failed = verdict.stream().filter(j -> Boolean.FALSE.equals(j.pass())).count();
        sb.append("**Result: ").append(failed == 0 ? "PASS" : "FAIL (" + failed + " judged series grew more than allowed)")
                .append("**\n\n");

        sb.append("## Per minute\n\n| minute | creates ok | errors | skipped | p50 ms | p99 ms | webhooks received | invoices paid")
                .append(" | settled | load avg |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (int m = 0; m <= n; m++) {
            Map<String, Double> r = rows.get(m);
            sb.append("| ").append(m);
            for (String c : List.of("creates_ok", "create_errors", "creates_skipped", "create_p50_ms", "create_p99_ms",
                    "webhooks_received", "invoices_paid", "invoices_settled", "loadavg_1m")) {
                Double v = r.get(c);
                sb.append(" | ").append(v == null || v.isNaN() ? "" : c.endsWith("_ms") || c.startsWith("load")
                        ? String.format(Locale.ROOT, "%,.1f", v) : String.format(Locale.ROOT, "%,d", v.longValue()));
            }
            sb.append(" |\n");
        }

        sb.append("\n## Judged series\n\n| series | kind | floor | at minute ").append(w.start()).append(" | max minutes ")
                .append(w.start() + 1).append("–").append(n).append(" | growth | pass |\n|---|---|---|---|---|---|---|\n");
        for (Judged j : verdict) {
            sb.append("| `").append(j.column()).append("` | ").append(j.rule()).append(" | ").append(j.floorText()).append(" | ")
                    .append(human(j.column(), j.start())).append(" | ").append(human(j.column(), j.max())).append(" | ")
                    .append(j.pass() == null ? "" : pct(j.growth())).append(" | ")
                    .append(j.pass() == null ? "no data" : j.pass() ? "yes" : "**no**").append(" |\n");
        }

        sb.append("\n## Reported, not judged\n\n| series | at minute ").append(w.start()).append(" | at minute ").append(n)
                .append(" |\n|---|---|---|\n");
        for (String c : columns(rows)) {
            if (rule(c) != null || !(c.contains(":") || c.startsWith("settle"))) {
                continue;
            }
            sb.append("| `").append(c).append("` | ").append(human(c, value(rows, w.start(), c))).append(" | ")
                    .append(human(c, value(rows, n, c))).append(" |\n");
        }
        return sb.toString();
    }

    private static String pct(double g) {
        return Double.isInfinite(g) ? "∞" : String.format(Locale.ROOT, "%+.1f %%", g * 100);
    }

    static String human(String column, double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (column.contains("bytes")) {
            return String.format(Locale.ROOT, "%.2f MiB", v / mib());
        }
        if (column.endsWith("_ms")) {
            return String.format(Locale.ROOT, "%,.1f ms", v);
        }
        return String.format(Locale.ROOT, "%,d", (long) v);
    }

    // ---------------------------------------------------------------- SVG

    /**
     * One panel of the plot: a title, the columns it draws, a scale for their values, the value (unscaled) a series
     * must reach once to be drawn (housekeeping tables that stay tiny would only crowd the legend), and whether the axis
     * may be cut at three times the judged window's maximum (a warm-up spike would otherwise flatten the curve judged).
     */
    record Panel(String title, Predicate<String> columns, double scale, double drawnFrom, String omitted, boolean cut) {
        Panel(String title, Predicate<String> columns, double scale, double drawnFrom, String omitted) {
            this(title, columns, scale, drawnFrom, omitted, false);
        }
    }

    static final List<Panel> PANELS = List.of(
            new Panel("create latency (ms)", c -> c.equals("create_p50_ms") || c.equals("create_p99_ms"), 1, 0, null, true),
            new Panel("throughput (per second)", c -> c.equals("creates_ok") || c.equals("webhooks_received"), 1 / 60.0, 0, null),
            new Panel("heap after GC (MiB)", c -> c.startsWith("heap_after_gc_bytes:"), 1 / mib(), 0, null),
            new Panel("consumer lag (records), pending webhook deliveries", c -> c.startsWith("lag:") || c.startsWith("backlog:"), 1, 0,
                    null),
            new Panel("housekeeping table size (MiB)", c -> c.startsWith("size_bytes:") && housekeepingAny(c), 1 / mib(), mib(),
                    "under 1 MiB throughout"),
            new Panel("housekeeping table rows (thousands)", c -> c.startsWith("rows:") && housekeepingAny(c), 1 / 1000.0, 1000,
                    "under 1,000 rows throughout"),
            new Panel("invoices paid and settled per minute", c -> c.equals("invoices_settled") || c.equals("invoices_paid"), 1, 0,
                    null),
            new Panel("load average (1 min)", c -> c.equals("loadavg_1m"), 1, 0, null));

    private static boolean housekeepingAny(String column) {
        return HOUSEKEEPING_TABLES.contains(column.substring(column.lastIndexOf('.') + 1));
    }

    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#7f7f7f", "#bcbd22", "#17becf"};

    private static final int PANEL_W = 540;
    private static final int PLOT_H = 170;
    private static final int LEFT = 60;
    private static final int TOP = 28;

    /** A self-contained SVG: two columns of small panels, minute on x, one line per series, the judged window shaded. */
    static String svg(List<Map<String, Double>> rows, String title) {
        int n = rows.size() - 1;
        Window w = Window.of(n);
        List<String> cols = columns(rows);
        List<String> blocks = new ArrayList<>();
        List<Integer> heights = new ArrayList<>();
        for (Panel p : PANELS) {
            List<String> all = cols.stream().filter(p.columns()).toList();
            List<String> series = all.stream().filter(c -> p.drawnFrom() == 0 || peak(rows, c) >= p.drawnFrom()).toList();
            int legendRows = (series.size() + 1) / 2 + (series.size() < all.size() ? 1 : 0);
            int h = TOP + PLOT_H + 30 + legendRows * 13 + 8;
            blocks.add(panel(rows, n, w, p, series, all.size() - series.size()));
            heights.add(h);
        }
        StringBuilder body = new StringBuilder();
        int y = 36;
        for (int i = 0; i < blocks.size(); i += 2) {
            int rowH = Math.max(heights.get(i), i + 1 < heights.size() ? heights.get(i + 1) : 0);
            body.append("<g transform=\"translate(0,").append(y).append(")\">").append(blocks.get(i)).append("</g>\n");
            if (i + 1 < blocks.size()) {
                body.append("<g transform=\"translate(").append(PANEL_W).append(',').append(y).append(")\">")
                        .append(blocks.get(i + 1)).append("</g>\n");
            }
            y += rowH;
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + 2 * PANEL_W + "\" height=\"" + y
                + "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
                + "<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">" + esc(title) + "</text>\n" + body + "</svg>\n";
    }

    private static double max(List<Map<String, Double>> rows, List<String> columns) {
        return columns.stream().mapToDouble(c -> peak(rows, c)).filter(v -> !Double.isNaN(v)).max().orElse(0);
    }

    private static double peak(List<Map<String, Double>> rows, String column) {
        return rows.stream().map(r -> r.get(column)).filter(v -> v != null && !v.isNaN()).mapToDouble(Double::doubleValue)
                .max().orElse(Double.NaN);
    }

    private static String panel(List<Map<String, Double>> rows, int n, Window w, Panel p, List<String> series, int omitted) {
        int plotW = PANEL_W - LEFT - 20;
        double max = 0;
        double windowMax = 0;
        for (String c : series) {
            for (int m = 0; m <= n; m++) {
                Double v = rows.get(m).get(c);
                if (v != null && !v.isNaN()) {
                    max = Math.max(max, v * p.scale());
                    if (m >= w.start()) {
                        windowMax = Math.max(windowMax, v * p.scale());
                    }
                }
            }
        }
        boolean cut = p.cut() && windowMax > 0 && max > 3 * windowMax;
        max = niceCeil(cut ? 3 * windowMax : max);
        double fmax = max;
        StringBuilder sb = new StringBuilder();
        sb.append("<text x=\"").append(LEFT).append("\" y=\"16\" font-weight=\"bold\">").append(esc(p.title()))
                .append(cut ? "<tspan font-weight=\"normal\" fill=\"#666\"> axis cut: earlier minutes reach "
                        + String.format(Locale.ROOT, "%,.0f", max(rows, series) * p.scale()) + "</tspan>" : "").append("</text>");
        // judged window
        double wx0 = LEFT + plotW * (double) w.start() / Math.max(1, n);
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f2f2f2\"/>", wx0, TOP,
                LEFT + plotW - wx0, PLOT_H));
        // axes and grid
        for (int i = 0; i <= 4; i++) {
            double gy = TOP + PLOT_H - PLOT_H * i / 4.0;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>", LEFT,
                    LEFT + plotW, gy, gy));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>", LEFT - 4, gy + 4,
                    tick(fmax * i / 4)));
        }
        int step = n <= 10 ? 1 : n <= 30 ? 5 : 10;
        for (int m = 0; m <= n; m += step) {
            double x = LEFT + plotW * (double) m / Math.max(1, n);
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>", x, TOP + PLOT_H + 14, m));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#666\">minute</text>", LEFT + plotW,
                TOP + PLOT_H + 26));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                LEFT, TOP, plotW, PLOT_H));
        if (series.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#999\">no data</text>", LEFT + 10, TOP + 20));
        }
        for (int s = 0; s < series.size(); s++) {
            String c = series.get(s);
            String color = COLORS[s % COLORS.length];
            String dash = s >= COLORS.length ? " stroke-dasharray=\"5,3\"" : "";
            StringBuilder pts = new StringBuilder();
            for (int m = 0; m <= n; m++) {
                Double v = rows.get(m).get(c);
                if (v == null || v.isNaN()) {
                    continue;
                }
                double x = LEFT + plotW * (double) m / Math.max(1, n);
                double yv = TOP + PLOT_H - (fmax == 0 ? 0 : PLOT_H * Math.min(1, v * p.scale() / fmax));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, yv));
            }
            sb.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\"").append(dash)
                    .append(" points=\"").append(pts.toString().trim()).append("\"/>");
            int lx = LEFT + (s % 2) * (plotW / 2);
            int ly = TOP + PLOT_H + 40 + (s / 2) * 13;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>",
                    lx, lx + 14, ly - 4, ly - 4, color, dash));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>", lx + 18, ly, esc(label(c))));
        }
        if (omitted > 0) {
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"#666\">%d more, %s (not drawn)</text>",
                    LEFT, TOP + PLOT_H + 40 + ((series.size() + 1) / 2) * 13, omitted, esc(p.omitted())));
        }
        return sb.toString();
    }

    private static String label(String column) {
        int colon = column.indexOf(':');
        return colon < 0 ? column : column.substring(colon + 1);
    }

    static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double f : new double[] {1, 2, 2.5, 5, 10}) {
            if (f * mag >= v) {
                return f * mag;
            }
        }
        return 10 * mag;
    }

    private static String tick(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%,d", (long) v)
                : String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "");
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** A row under construction, in insertion order. */
    static Map<String, Double> row() {
        return new LinkedHashMap<>();
    }
}
