package dev.agentpay.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.agentpay.bench.settlement.UsdcPayments;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Soak (issue 34 item 2): a steady load on a running local stack for {@code MINUTES}, and every minute one sample of
 * what must not keep growing. Load: mandate creates at {@code RATE}/s open loop through the gateway (no
 * Idempotency-Key), each one delivered once as a {@code mandate.proposed} webhook to an in-process receiver (a
 * subscription made for the run, deleted after it), and an invoice paid with a USDC transfer on one anvil chain every
 * {@code SOAK_INVOICE_EVERY_MS} (2,000 ms; {@link UsdcPayments}). Sample at minute m: the minute's create p50/p99
 * (HdrHistogram interval histogram, latency from the intended start), errors, webhooks received, invoices paid and seen
 * SETTLED; each database's housekeeping tables ({@link SoakReport#HOUSEKEEPING_TABLES}: {@code pg_total_relation_size}
 * and {@code count(*)}), the pending webhook deliveries, a few business tables and the database sizes (reported); each
 * service's heap after GC from its {@code /q/metrics}; every consumer group's lag (committed vs end offsets, Kafka Admin
 * API); the load average. Minute 0 is sampled before the load starts.
 *
 * <p>Writes {@code OUT/samples.csv} (rewritten every minute), then {@code OUT/soak.svg} and {@code OUT/soak.md} (the
 * verdict, {@link SoakReport}); exits 1 when a judged series grew by more than allowed, 2 when the run could not be made.
 *
 * <pre>
 * java -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.soak.Soak STACK_ENV [MINUTES=30] [RATE=300] [OUT=bench/target/soak]
 * java -cp ... dev.agentpay.bench.soak.Soak --report bench/target/soak/samples.csv   (plot and verdict again from the samples)
 * </pre>
 */
public final class Soak {

    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    /** Instances the stack runs (instance 1 of each: {@code <SERVICE>_URL} in stack.env). */
    private static final List<String> SERVICES = List.of("mandate-service", "invoice-service", "settlement-watcher",
            "anchor-service", "anchor-service-base", "discovery-service", "webhook-dispatcher");
    /** Business tables: they grow by design; their size is reported, not judged. */
    private static final List<String> BUSINESS_TABLES = List.of("mandate", "mandate_transition", "invoice",
            "anchor_intent", "anchored_transition", "transition_anchor", "detected_transfer", "deposit_address");
    private static final String SUBSCRIPTION_DESCRIPTION = "bench soak";
    /** Creates in flight above which a due create is skipped (counted) rather than queued without bound. */
    private static final int MAX_IN_FLIGHT = 5_000;

    private final Map<String, String> env;
    /** The stack's state directory (stack.env's own): its {@code pids/} name the service processes. */
    private final Path state;
    private final boolean fullGc;
    private final int minutes;
    private final int rate;
    private final Path out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Recorder createLatency = new Recorder(3);
    private final Recorder settleLatency = new Recorder(3);
    private final LongAdder createsOk = new LongAdder();
    private final LongAdder createErrors = new LongAdder();
    private final LongAdder createsSkipped = new LongAdder();
    private final LongAdder webhooks = new LongAdder();
    private final LongAdder invoicesPaid = new LongAdder();
    private final LongAdder invoicesSettled = new LongAdder();
    private final LongAdder payErrors = new LongAdder();
    private final LongAdder unsettled = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();
    /** Invoices paid and not yet seen SETTLED: id → when the transfer was sent (nanoTime). */
    private final Map<String, Long> pending = new ConcurrentSkipListMap<>();
    private final List<Map<String, Double>> rows = new ArrayList<>();

    private Soak(Map<String, String> env, Path state, int minutes, int rate, Path out) {
        this.env = env;
        this.state = state;
        this.fullGc = !"0".equals(env.getOrDefault("SOAK_FULL_GC", "1"));
        this.minutes = minutes;
        this.rate = rate;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Soak STACK_ENV [MINUTES=30] [RATE=300] [OUT=bench/target/soak]\n"
                    + "       Soak --report SAMPLES_CSV [OUT]   (the plot and verdict again from a run's samples)");
            System.exit(2);
        }
        if (args[0].equals("--report")) {
            Path csv = Path.of(args[1]);
            Path dir = args.length > 2 ? Path.of(args[2]) : csv.toAbsolutePath().getParent();
            List<Map<String, Double>> rows = SoakReport.parseCsv(Files.readString(csv));
            List<SoakReport.Judged> verdict = SoakReport.judge(rows);
            Files.writeString(dir.resolve("soak.svg"), SoakReport.svg(rows, "Soak: " + (rows.size() - 1) + " min (from " + csv.getFileName()
                    + "; shaded: judged window)"));
            String md = SoakReport.markdown(rows, verdict, "Verdict computed again from `" + csv + "`.");
            Files.writeString(dir.resolve("soak.md"), md);
            System.out.println(md);
            System.exit(SoakReport.passed(verdict) ? 0 : 1);
        }
        Path envFile = Path.of(args[0]);
        Map<String, String> env = UsdcPayments.readEnv(envFile);
        int minutes = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        Path out = Path.of(args.length > 3 ? args[3] : "bench/target/soak");
        Files.createDirectories(out);
        int code;
        try {
            code = new Soak(env, envFile.toAbsolutePath().getParent(), minutes, rate, out).run();
        } catch (Exception e) {
            e.printStackTrace();
            code = 2;
        }
        System.exit(code);
    }

    private int run() throws Exception {
        String chain = env.getOrDefault("SOAK_PAY_CHAIN", "base");
        long invoiceEveryMs = Long.parseLong(env.getOrDefault("SOAK_INVOICE_EVERY_MS", "2000"));
        String started = ISO_MILLIS.format(Instant.now());

        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 256);
        receiver.createContext("/hook", ex -> {
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            webhooks.increment();
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.setExecutor(Executors.newFixedThreadPool(4));
        receiver.start();
        String subscription = subscribe("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
        System.out.printf("soak: %d min at %d creates/s, an invoice paid on %s every %d ms; webhook subscription %s%n", minutes,
                rate, chain, invoiceEveryMs, subscription);

        Admin admin = Admin.create(adminProps());
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        ScheduledExecutorService payer = Executors.newScheduledThreadPool(2);
        Vertx vertx = Vertx.vertx();
        try {
            rows.add(sample(0, admin)); // before any load
            printMinute(0);
            long t0 = System.nanoTime();
            WebClient client = WebClient.create(vertx, new WebClientOptions().setMaxPoolSize(256).setKeepAlive(true)
                    .setPipelining(false).setConnectTimeout(5000).setIdleTimeout(30));
            long timer = startCreates(vertx, client, t0);
            payer.scheduleAtFixedRate(() -> payOne(chain), 0, invoiceEveryMs, TimeUnit.MILLISECONDS);
            payer.scheduleWithFixedDelay(this::checkSettled, 500, 500, TimeUnit.MILLISECONDS);
            for (int m = 1; m <= minutes; m++) {
                long due = t0 + TimeUnit.MINUTES.toNanos(m);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                int minute = m;
                rows.add(sampler.submit(() -> sample(minute, admin)).get());
                printMinute(m);
                Files.writeString(out.resolve("samples.csv"), SoakReport.csv(rows));
            }
            vertx.cancelTimer(timer);
            payer.shutdownNow();
            long drain = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (inFlight.get() > 0 && System.nanoTime() < drain) {
                Thread.sleep(100);
            }
        } finally {
            payer.shutdownNow();
            sampler.shutdownNow();
            admin.close(Duration.ofSeconds(5));
            try {
                UsdcPayments.api(env, "DELETE", "/v1/webhooks/" + subscription, null);
            } catch (Exception e) {
                System.out.println("could not delete the webhook subscription " + subscription + ": " + e.getMessage());
            }
            receiver.stop(0);
            vertx.close();
        }
        if (!errorKinds.isEmpty()) {
            System.out.println("create errors by kind: " + errorKinds);
        }
        List<SoakReport.Judged> verdict = SoakReport.judge(rows);
        String header = String.format(Locale.ROOT, "Run %s, %d minutes at %d creates/s (open loop, `POST /v1/mandates` through"
                + " the gateway `%s`, no Idempotency-Key), every create delivered as a `mandate.proposed` webhook to an"
                + " in-process receiver (204), an invoice paid with a USDC transfer on %s every %d ms. Samples: `samples.csv`;"
                + " plot: `soak.svg`.", started, minutes, rate, env.get("BASE_URL"), chain, invoiceEveryMs);
        Files.writeString(out.resolve("samples.csv"), SoakReport.csv(rows));
        Files.writeString(out.resolve("soak.svg"), SoakReport.svg(rows,
                String.format(Locale.ROOT, "Soak %s: %d min at %d creates/s (shaded: judged window)", started, minutes, rate)));
        String md = SoakReport.markdown(rows, verdict, header);
        Files.writeString(out.resolve("soak.md"), md);
        System.out.println();
        System.out.println(md);
        System.out.println("written: " + out.resolve("samples.csv") + ", " + out.resolve("soak.svg") + ", " + out.resolve("soak.md"));
        return SoakReport.passed(verdict) ? 0 : 1;
    }

    // ------------------------------------------------------------------ load

    /** Open loop: a 1 ms tick issues every create whose intended start has passed; latency counts from that start. */
    private long startCreates(Vertx vertx, WebClient client, long t0) {
        URI base = URI.create(env.get("BASE_URL"));
        int port = base.getPort() > 0 ? base.getPort() : 80;
        String key = env.get("API_KEY");
        long intervalNanos = 1_000_000_000L / rate;
        AtomicLong issued = new AtomicLong();
        return vertx.setPeriodic(1, id -> {
            long due = (System.nanoTime() - t0) / intervalNanos + 1;
            while (issued.get() < due) {
                long intended = t0 + issued.getAndIncrement() * intervalNanos;
                if (inFlight.get() >= MAX_IN_FLIGHT) {
                    createsSkipped.increment();
                    continue;
                }
                inFlight.incrementAndGet();
                // The body of Scenarios' create-mandate.
                JsonObject body = new JsonObject()
                        .put("proposer", "agent-soak-a")
                        .put("counterparty", "agent-soak-b")
                        .put("scope", "soak work")
                        .put("terms", new JsonObject().put("amount", 100).put("currency", "USDC"))
                        .put("expiry", ISO_MILLIS.format(Instant.now().plus(1, ChronoUnit.DAYS)));
                client.post(port, base.getHost(), "/v1/mandates").putHeader("x-api-key", key).timeout(30_000)
                        .sendJsonObject(body).onComplete(ar -> {
                            inFlight.decrementAndGet();
                            createLatency.recordValue(Math.max(1, (System.nanoTime() - intended) / 1000));
                            if (ar.succeeded() && ar.result().statusCode() == 201) {
                                createsOk.increment();
                            } else {
                                createErrors.increment();
                                String kind = ar.succeeded() ? "status " + ar.result().statusCode()
                                        : ar.cause().getClass().getSimpleName();
                                errorKinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
                            }
                        });
            }
        });
    }

    private void payOne(String chain) {
        try {
            String amount = String.format(Locale.ROOT, "1.%02d", (System.nanoTime() / 1000) % 100);
            UsdcPayments.Invoice inv = UsdcPayments.createInvoice(env, chain, amount);
            UsdcPayments.pay(env, chain, inv);
            pending.put(inv.id(), System.nanoTime());
            invoicesPaid.increment();
        } catch (Exception e) {
            payErrors.increment();
            errorKinds.computeIfAbsent("pay: " + e.getClass().getSimpleName(), k -> new LongAdder()).increment();
        }
    }

    /** Polls the paid invoices not yet SETTLED; one still not settled 2 minutes after its transfer is counted unsettled. */
    private void checkSettled() {
        for (Map.Entry<String, Long> e : pending.entrySet()) {
            try {
                if ("SETTLED".equals(UsdcPayments.status(env, e.getKey()))) {
                    settleLatency.recordValue(Math.max(1, (System.nanoTime() - e.getValue()) / 1000));
                    invoicesSettled.increment();
                    pending.remove(e.getKey());
                } else if (System.nanoTime() - e.getValue() > TimeUnit.MINUTES.toNanos(2)) {
                    unsettled.increment();
                    pending.remove(e.getKey());
                }
            } catch (Exception ex) {
                // polled again next round
            }
        }
    }

    /** Subscribes the receiver to {@code mandate.proposed}, after deleting subscriptions an earlier soak left behind. */
    private String subscribe(String url) throws Exception {
        for (JsonNode s : UsdcPayments.api(env, "GET", "/v1/webhooks", null).path("data")) {
            if (SUBSCRIPTION_DESCRIPTION.equals(s.path("description").asText())) {
                UsdcPayments.api(env, "DELETE", "/v1/webhooks/" + s.path("id").asText(), null);
            }
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        JsonObject body = new JsonObject().put("url", url).put("events", new JsonArray().add("mandate.proposed"))
                .put("secret", "whsec_" + Base64.getEncoder().encodeToString(secret)).put("description", SUBSCRIPTION_DESCRIPTION);
        return UsdcPayments.api(env, "POST", "/v1/webhooks", body.encode()).at("/data/id").asText();
    }

    // ------------------------------------------------------------------ samples

    private Map<String, Double> sample(int minute, Admin admin) {
        Map<String, Double> r = SoakReport.row();
        r.put("minute", (double) minute);
        Histogram h = createLatency.getIntervalHistogram();
        Histogram s = settleLatency.getIntervalHistogram();
        r.put("creates_ok", (double) createsOk.sumThenReset());
        r.put("create_errors", (double) createErrors.sumThenReset());
        r.put("creates_skipped", (double) createsSkipped.sumThenReset());
        r.put("create_p50_ms", minute == 0 || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(50) / 1000.0);
        r.put("create_p99_ms", minute == 0 || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1000.0);
        r.put("create_max_ms", minute == 0 || h.getTotalCount() == 0 ? Double.NaN : h.getMaxValue() / 1000.0);
        r.put("webhooks_received", (double) webhooks.sumThenReset());
        r.put("invoices_paid", (double) invoicesPaid.sumThenReset());
        r.put("invoices_settled", (double) invoicesSettled.sumThenReset());
        r.put("pay_errors", (double) payErrors.sumThenReset());
        r.put("invoices_unsettled", (double) unsettled.sumThenReset());
        r.put("settle_p50_ms", s.getTotalCount() == 0 ? Double.NaN : s.getValueAtPercentile(50) / 1000.0);
        r.put("settle_max_ms", s.getTotalCount() == 0 ? Double.NaN : s.getMaxValue() / 1000.0);
        r.put("loadavg_1m", loadAverage());
        heaps(r);
        tables(r);
        lags(admin, r);
        return r;
    }

    private void printMinute(int m) {
        Map<String, Double> r = rows.get(m);
        double heapMax = r.entrySet().stream().filter(e -> e.getKey().startsWith("heap_after_gc_bytes:"))
                .mapToDouble(Map.Entry::getValue).max().orElse(Double.NaN);
        double lagMax = r.entrySet().stream().filter(e -> e.getKey().startsWith("lag:")).mapToDouble(Map.Entry::getValue)
                .max().orElse(Double.NaN);
        double pendingDeliveries = r.entrySet().stream().filter(e -> e.getKey().startsWith("backlog:"))
                .mapToDouble(Map.Entry::getValue).sum();
        double hk = r.entrySet().stream().filter(e -> e.getKey().startsWith("size_bytes:") && SoakReport.HOUSEKEEPING_TABLES
                .contains(e.getKey().substring(e.getKey().lastIndexOf('.') + 1))).mapToDouble(Map.Entry::getValue).sum();
        System.out.printf(Locale.ROOT, "min %2d: creates %,.0f ok, %,.0f errors, %,.0f skipped, p50 %.1f ms, p99 %.1f ms;"
                        + " webhooks %,.0f (pending %,.0f); invoices paid %,.0f settled %,.0f; max heap after GC %.1f MiB; max lag %,.0f;"
                        + " housekeeping tables %.1f MiB; load %.2f%n",
                m, r.get("creates_ok"), r.get("create_errors"), r.get("creates_skipped"), r.get("create_p50_ms"),
                r.get("create_p99_ms"), r.get("webhooks_received"), pendingDeliveries, r.get("invoices_paid"), r.get("invoices_settled"),
                heapMax / 1048576, lagMax, hk / 1048576, r.get("loadavg_1m"));
        r.forEach((k, v) -> {
            if (k.startsWith("restarts:") && v > 0) {
                System.out.printf("        %s has restarted %.0f time(s) since the stack started%n", k.substring(9), v);
            }
        });
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Each service's heap after GC from its Prometheus metrics: {@code jvm_gc_live_data_size_bytes} (Micrometer: the
     * long-lived pool after the last major collection), or the heap in use while no major collection happened yet.
     * With the services' serial collector and 384 MB heaps a major collection is rare (none in 15 minutes at 100
     * creates/s in the trial: the figure stayed the one of the start), so unless {@code SOAK_FULL_GC=0} each service
     * is first asked for a full collection ({@code jcmd <pid> GC.run}, pid from the state directory's
     * {@code pids/}): the figure is then the live heap of that minute. Also reports each service's restarts.
     */
    private void heaps(Map<String, Double> r) {
        if (fullGc) {
            for (String svc : SERVICES) {
                fullGc(svc);
            }
            try {
                Thread.sleep(300); // the collector's notification reaches Micrometer's listener asynchronously
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (String svc : SERVICES) {
            try {
                r.put("restarts:" + svc, Double.parseDouble(Files.readString(state.resolve("pids/" + svc + ".restarts")).trim()));
            } catch (IOException | RuntimeException e) {
                // not a supervised service of this stack
            }
        }
        for (String svc : SERVICES) {
            String url = env.get(svc.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL");
            if (url == null) {
                continue;
            }
            try {
                HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(url + "/q/metrics"))
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                double live = 0;
                double used = 0;
                for (String line : res.body().split("\n")) {
                    if (line.startsWith("jvm_gc_live_data_size_bytes")) {
                        live += metricValue(line);
                    } else if (line.startsWith("jvm_memory_used_bytes") && line.contains("area=\"heap\"")) {
                        used += metricValue(line);
                    }
                }
                r.put("heap_after_gc_bytes:" + svc, live > 0 ? live : used);
                r.put("heap_used_bytes:" + svc, used);
            } catch (Exception e) {
                r.put("heap_after_gc_bytes:" + svc, Double.NaN);
            }
        }
    }

    private void fullGc(String svc) {
        try {
            String pid = Files.readString(state.resolve("pids/" + svc + ".pid")).trim();
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(Files.isExecutable(jcmd) ? jcmd.toString() : "jcmd", pid, "GC.run")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            // no pid file (e.g. a service of another layout): the metric as it stands
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static double metricValue(String line) {
        String[] parts = line.trim().split("\\s+");
        return Double.parseDouble(parts[parts.length - 1]);
    }

    /** Housekeeping tables' size and exact row count, business tables' size and estimated rows, each database's size. */
    private void tables(Map<String, Double> r) {
        String port = env.get("POSTGRES_PORT");
        List<String> databases = new ArrayList<>();
        try (Connection c = db(port, "postgres"); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("select datname from pg_database where not datistemplate and datname <> 'postgres'"
                        + " order by oid")) {
            while (rs.next()) {
                databases.add(rs.getString(1));
            }
        } catch (SQLException e) {
            System.out.println("(no table sizes: " + e.getMessage() + ")");
            return;
        }
        for (String database : databases) {
            try (Connection c = db(port, database); Statement st = c.createStatement()) {
                Map<String, Double> sizes = new HashMap<>();
                Map<String, Double> estimates = new HashMap<>();
                try (ResultSet rs = st.executeQuery("select c.relname, pg_total_relation_size(c.oid), c.reltuples from pg_class c"
                        + " join pg_namespace n on n.oid = c.relnamespace where c.relkind = 'r' and n.nspname = current_schema()")) {
                    while (rs.next()) {
                        sizes.put(rs.getString(1), (double) rs.getLong(2));
                        estimates.put(rs.getString(1), Math.max(0, rs.getDouble(3)));
                    }
                }
                for (String t : SoakReport.HOUSEKEEPING_TABLES) {
                    if (sizes.containsKey(t)) {
                        r.put("size_bytes:" + database + "." + t, sizes.get(t));
                        try (ResultSet rs = st.executeQuery("select count(*) from " + t)) {
                            rs.next();
                            r.put("rows:" + database + "." + t, (double) rs.getLong(1));
                        }
                    }
                }
                if (sizes.containsKey("webhook_delivery")) {
                    // the dispatcher's own lag: deliveries waiting to be sent (a stalled worker shows here first)
                    try (ResultSet rs = st.executeQuery("select count(*) from webhook_delivery where status = 'pending'")) {
                        rs.next();
                        r.put("backlog:" + database + ".webhook_delivery_pending", (double) rs.getLong(1));
                    }
                }
                for (String t : BUSINESS_TABLES) {
                    if (sizes.containsKey(t)) {
                        r.put("business_size_bytes:" + database + "." + t, sizes.get(t));
                        r.put("business_rows_estimate:" + database + "." + t, estimates.get(t));
                    }
                }
                try (ResultSet rs = st.executeQuery("select pg_database_size(current_database())")) {
                    rs.next();
                    r.put("db_bytes:" + database, (double) rs.getLong(1));
                }
            } catch (SQLException e) {
                System.out.println("(" + database + ": " + e.getMessage() + ")");
            }
        }
    }

    private static Connection db(String port, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, "postgres", "postgres");
    }

    /** Every consumer group's lag: for each partition it committed on, end offset − committed offset, summed. */
    private static void lags(Admin admin, Map<String, Double> r) {
        try {
            Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(15, TimeUnit.SECONDS);
            for (GroupListing g : groups.stream().sorted((a, b) -> a.groupId().compareTo(b.groupId())).toList()) {
                Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(g.groupId())
                        .partitionsToOffsetAndMetadata().get(15, TimeUnit.SECONDS);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                committed.forEach((tp, om) -> {
                    if (om != null) {
                        latest.put(tp, OffsetSpec.latest());
                    }
                });
                if (latest.isEmpty()) {
                    continue;
                }
                Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all()
                        .get(15, TimeUnit.SECONDS);
                long lag = 0;
                for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> e : ends.entrySet()) {
                    lag += Math.max(0, e.getValue().offset() - committed.get(e.getKey()).offset());
                }
                r.put("lag:" + g.groupId(), (double) lag);
            }
        } catch (Exception e) {
            System.out.println("(no consumer lag: " + e + ")");
        }
    }

    private Properties adminProps() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, env.get("KAFKA_BOOTSTRAP_SERVERS"));
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        p.put(AdminClientConfig.CLIENT_ID_CONFIG, "bench-soak");
        return p;
    }
}
