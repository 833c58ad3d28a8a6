package dev.agentpay.discovery.console.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.discovery.domain.UpstreamResponse;
import dev.agentpay.discovery.console.service.ConsoleSessions.Credential;
import dev.agentpay.discovery.console.service.PartnerApi.Service;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The console's charts, computed from the public API with the partner's key (the API has no aggregate endpoints):
 * <ul>
 * <li>settled volume per day (UTC) per chain over the last {@value #DAYS} days: the partner's SETTLED invoices, newest
 * first, {@value #INVOICE_PAGES} pages of 100 at most;</li>
 * <li>webhook deliveries of the last 24 h: success rate (succeeded / (succeeded + failed); pending ones apart) over
 * every subscription's deliveries ({@value #DELIVERY_PAGES} pages of 100 each at most), and attempt latency p50/p99
 * (nearest rank) over the attempts of the newest {@value #LATENCY_SAMPLE} deliveries (each one's detail read).</li>
 * </ul>
 * The bounds keep one page view to a few dozen API calls; the page says when a bound was reached.
 */
@ApplicationScoped
public class ConsoleCharts {

    static final int DAYS = 14;
    static final int INVOICE_PAGES = 10;
    static final int DELIVERY_PAGES = 5;
    static final int LATENCY_SAMPLE = 40; // with the list reads, one view stays within a partner's burst (100 requests)

    @Inject
    PartnerApi api;

    /** One bar: a day, a chain, the settled USDC; {@code width} in percent of the largest bar. */
    public record Bar(String day, String chain, String amount, int width) {
    }

    public record Charts(List<Bar> volume, boolean volumeTruncated, int deliveries, int succeeded, int failed, int pending,
            String successRate, Integer p50, Integer p99, int latencySample, boolean deliveriesTruncated) {
    }

    public Uni<Charts> compute(Credential key) {
        Instant now = Instant.now();
        return settled(key, now).chain(vol -> deliveries(key, now).map(d -> assemble(vol, d)));
    }

    record Volume(Map<String, BigDecimal> byDayChain, boolean truncated) {
    }

    record Deliveries(List<JsonNode> items, List<Integer> latencies, boolean truncated) {
    }

    Uni<Volume> settled(Credential key, Instant now) {
        LocalDate from = now.atZone(ZoneOffset.UTC).toLocalDate().minusDays(DAYS - 1);
        Map<String, BigDecimal> sums = new TreeMap<>(Collections.reverseOrder());
        return invoicePage(key, null, 0, from, sums).map(truncated -> new Volume(sums, truncated));
    }

    private Uni<Boolean> invoicePage(Credential key, String cursor, int page, LocalDate from, Map<String, BigDecimal> sums) {
        if (page == INVOICE_PAGES) {
            return Uni.createFrom().item(cursor != null);
        }
        String path = "/v1/invoices?status=SETTLED&limit=100" + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor,
                java.nio.charset.StandardCharsets.UTF_8));
        return api.get(Service.INVOICE, key, path).chain(r -> {
            JsonNode data = data(r);
            boolean older = false;
            for (JsonNode i : data.path("items")) {
                String at = i.path("settledAt").asText(null);
                if (at == null) {
                    continue;
                }
                LocalDate day = Instant.parse(at).atZone(ZoneOffset.UTC).toLocalDate();
                if (day.isBefore(from)) {
                    older = true; // newest first by invoice number; settlement order differs, so keep reading the page
                    continue;
                }
                sums.merge(day + " " + i.path("paymentDetails").path("chain").asText(), new BigDecimal(i.path("amount").asText("0")),
                        BigDecimal::add);
            }
            String next = data.path("nextCursor").asText(null);
            return next == null || (older && page > 0) ? Uni.createFrom().item(false) : invoicePage(key, next, page + 1, from, sums);
        });
    }

    Uni<Deliveries> deliveries(Credential key, Instant now) {
        OffsetDateTime since = now.minus(Duration.ofHours(24)).atOffset(ZoneOffset.UTC);
        return api.get(Service.WEBHOOK, key, "/v1/webhooks").chain(r -> {
            List<Uni<List<JsonNode>>> perSub = new ArrayList<>();
            boolean[] truncated = {false};
            for (JsonNode sub : data(r)) {
                perSub.add(deliveryPages(key, sub.path("id").asText(), null, 0, since, new ArrayList<>(), truncated));
            }
            Uni<List<JsonNode>> all = perSub.isEmpty() ? Uni.createFrom().item(List.of())
                    : Uni.join().all(perSub).andFailFast().map(ls -> ls.stream().flatMap(List::stream).toList());
            return all.chain(items -> {
                List<JsonNode> newest = items.stream()
                        .sorted((a, b) -> b.path("createdAt").asText().compareTo(a.path("createdAt").asText()))
                        .limit(LATENCY_SAMPLE).toList();
                return Multi.createFrom().iterable(newest)
                        .onItem().transformToUniAndConcatenate(d -> api.get(Service.WEBHOOK, key,
                                "/v1/webhooks/" + d.path("subscriptionId").asText(d.path("_sub").asText()) + "/deliveries/" + d.path("id").asText())
                                .map(x -> x.status() == 200 ? x.body().path("data").path("attempts") : null))
                        .collect().asList()
                        .map(attemptLists -> {
                            List<Integer> lat = new ArrayList<>();
                            for (JsonNode attempts : attemptLists) {
                                if (attempts != null) {
                                    attempts.forEach(a -> lat.add(a.path("latencyMs").asInt()));
                                }
                            }
                            return new Deliveries(items, lat, truncated[0]);
                        });
            });
        });
    }

    private Uni<List<JsonNode>> deliveryPages(Credential key, String sub, String before, int page, OffsetDateTime since,
            List<JsonNode> acc, boolean[] truncated) {
        if (page == DELIVERY_PAGES) {
            truncated[0] = true;
            return Uni.createFrom().item(acc);
        }
        return api.get(Service.WEBHOOK, key, "/v1/webhooks/" + sub + "/deliveries?limit=100" + (before == null ? "" : "&before=" + before))
                .chain(r -> {
                    JsonNode data = data(r);
                    boolean older = false;
                    for (JsonNode d : data) {
                        if (OffsetDateTime.parse(d.path("createdAt").asText()).isBefore(since)) {
                            older = true;
                            break;
                        }
                        ((com.fasterxml.jackson.databind.node.ObjectNode) d).put("_sub", sub);
                        acc.add(d);
                    }
                    return older || data.size() < 100 ? Uni.createFrom().item(acc)
                            : deliveryPages(key, sub, data.get(data.size() - 1).path("id").asText(), page + 1, since, acc, truncated);
                });
    }

    static Charts assemble(Volume v, Deliveries d) {
        BigDecimal max = v.byDayChain().values().stream().max(BigDecimal::compareTo).orElse(BigDecimal.ONE);
        List<Bar> bars = new ArrayList<>();
        v.byDayChain().forEach((k, amount) -> {
            String[] dc = k.split(" ");
            int w = max.signum() == 0 ? 0 : amount.multiply(BigDecimal.valueOf(100)).divide(max, 0, java.math.RoundingMode.UP).intValue();
            bars.add(new Bar(dc[0], dc[1], amount.stripTrailingZeros().toPlainString(), Math.max(1, w)));
        });
        int ok = 0;
        int bad = 0;
        int pending = 0;
        for (JsonNode x : d.items()) {
            switch (x.path("status").asText()) {
                case "succeeded" -> ok++;
                case "failed" -> bad++;
                default -> pending++;
            }
        }
        String rate = ok + bad == 0 ? null : BigDecimal.valueOf(ok * 100L).divide(BigDecimal.valueOf(ok + bad), 1,
                java.math.RoundingMode.HALF_UP).toPlainString() + " %";
        List<Integer> lat = new ArrayList<>(d.latencies());
        Collections.sort(lat);
        return new Charts(bars, v.truncated(), d.items().size(), ok, bad, pending, rate, percentile(lat, 50), percentile(lat, 99),
                lat.size(), d.truncated());
    }

    /** Nearest-rank percentile; {@code null} without samples. */
    static Integer percentile(List<Integer> sorted, int p) {
        if (sorted.isEmpty()) {
            return null;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    static JsonNode data(UpstreamResponse r) {
        if (r.status() != 200 || r.body() == null) {
            throw new IllegalStateException("the API answered " + r.status());
        }
        return r.body().path("data");
    }
}
