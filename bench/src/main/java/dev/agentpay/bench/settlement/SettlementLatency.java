package dev.agentpay.bench.settlement;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Detection latency on the running local stack: an invoice created through the gateway, paid with a
 * USDC transfer on its anvil chain (a block a second), and the time from the transfer's block being
 * seen (receipt polled every 25 ms) to {@code GET /v1/invoices/{id}} answering {@code SETTLED} (polled
 * every 25 ms; the invoice and the transfer: {@link UsdcPayments}). One thread per EVM chain, {@code PER_CHAIN} payments each. Each payment is also split
 * into stages from the stack's databases (same machine, same clock): block seen → the watcher committed
 * the transfer ({@code detected_transfer.detected_at}) → invoice-service committed SETTLED
 * ({@code invoice.settled_at}) → {@code GET} saw it.
 *
 * <p>The first {@code WARMUP} payments per chain (default 3) are made the same way but not counted: right
 * after a start the first settlements take 1-2 s in invoice-service (class loading, JIT), which is a
 * start-up cost, not the steady state the target is about. They are reported on their own line.
 *
 * <pre>java -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.settlement.SettlementLatency [.local/stack.env] [PER_CHAIN] [WARMUP]</pre>
 */
public final class SettlementLatency {

    private static final List<String> CHAINS = List.of("base", "polygon", "arbitrum", "skale");

    /** One measured payment: client-side times in epoch milliseconds. */
    record Sample(String chain, String invoiceId, String txHash, long minedAtMs, long seenAtMs) {
        long total() {
            return seenAtMs - minedAtMs;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = UsdcPayments.readEnv(Path.of(args.length > 0 ? args[0] : ".local/stack.env"));
        int perChain = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        ExecutorService pool = Executors.newFixedThreadPool(CHAINS.size());
        List<Future<List<Sample>>> futures = new ArrayList<>();
        for (int c = 0; c < CHAINS.size(); c++) {
            String chain = CHAINS.get(c);
            int offset = c;
            futures.add(pool.submit(() -> run(env, chain, warmup + perChain, offset)));
        }
        List<Sample> samples = new ArrayList<>();
        List<Long> warm = new ArrayList<>();
        for (Future<List<Sample>> f : futures) {
            List<Sample> chainSamples = f.get();
            chainSamples.subList(0, warmup).forEach(s -> warm.add(s.total()));
            samples.addAll(chainSamples.subList(warmup, chainSamples.size()));
        }
        pool.shutdown();
        if (!warm.isEmpty()) {
            System.out.println("warm-up payments (not counted), ms: " + warm);
        }
        List<Long> all = new ArrayList<>(samples.stream().map(Sample::total).toList());
        Collections.sort(all);
        System.out.printf("| payments | p50 ms | p90 ms | p99 ms | max ms |%n|---|---|---|---|---|%n| %d | %d | %d | %d | %d |%n",
                all.size(), pct(all, 0.50), pct(all, 0.90), pct(all, 0.99), all.get(all.size() - 1));
        stages(env, samples);
    }

    /** Where the time went, per stage, from the databases' commit timestamps. */
    private static void stages(Map<String, String> env, List<Sample> samples) {
        String port = env.get("POSTGRES_PORT");
        if (port == null) {
            return;
        }
        Map<String, Long> detected = new HashMap<>();
        Map<String, Long> settled = new HashMap<>();
        try (Connection w = db(port, "watcher");
                PreparedStatement st = w.prepareStatement("select tx_hash, (extract(epoch from min(detected_at)) * 1000)::bigint"
                        + " from detected_transfer where tx_hash = any(?) group by tx_hash");
                Connection i = db(port, "invoice");
                PreparedStatement si = i.prepareStatement("select id::text, (extract(epoch from settled_at) * 1000)::bigint"
                        + " from invoice where id::text = any(?)")) {
            st.setArray(1, w.createArrayOf("varchar", samples.stream().map(Sample::txHash).toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    detected.put(rs.getString(1).toLowerCase(), rs.getLong(2));
                }
            }
            si.setArray(1, i.createArrayOf("varchar", samples.stream().map(Sample::invoiceId).toArray()));
            try (ResultSet rs = si.executeQuery()) {
                while (rs.next()) {
                    settled.put(rs.getString(1), rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            System.out.println("(no stage split: " + e.getMessage() + ")");
            return;
        }
        List<Long> detect = new ArrayList<>();
        List<Long> apply = new ArrayList<>();
        List<Long> read = new ArrayList<>();
        for (Sample s : samples) {
            Long d = detected.get(s.txHash().toLowerCase());
            Long st = settled.get(s.invoiceId());
            if (d == null || st == null) {
                continue;
            }
            detect.add(d - s.minedAtMs());
            apply.add(st - d);
            read.add(s.seenAtMs() - st);
        }
        System.out.printf("%n| stage (n=%d) | p50 ms | p90 ms | p99 ms | max ms |%n|---|---|---|---|---|%n", detect.size());
        row("block seen → watcher committed the transfer", detect);
        row("watcher commit → invoice SETTLED committed", apply);
        row("SETTLED committed → GET saw it", read);
        System.out.println();
        for (Sample s : samples) {
            Long d = detected.get(s.txHash().toLowerCase());
            Long st = settled.get(s.invoiceId());
            if (s.total() > 1000 && d != null && st != null) {
                System.out.printf("slow: %s %s total %d ms = detect %d + apply %d + read %d%n", s.chain(), s.txHash(), s.total(),
                        d - s.minedAtMs(), st - d, s.seenAtMs() - st);
            }
        }
    }

    private static void row(String name, List<Long> values) {
        if (values.isEmpty()) {
            return;
        }
        List<Long> v = new ArrayList<>(values);
        Collections.sort(v);
        System.out.printf("| %s | %d | %d | %d | %d |%n", name, pct(v, 0.5), pct(v, 0.9), pct(v, 0.99), v.get(v.size() - 1));
    }

    private static Connection db(String port, String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, "postgres", "postgres");
    }

    private static List<Sample> run(Map<String, String> env, String chain, int n, int offset) throws Exception {
        List<Sample> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Distinct amounts per run so open invoices of earlier runs do not shift the payable amount.
            String amount = String.format("%d.%02d", 2 + offset, (System.nanoTime() / 1000) % 100);
            UsdcPayments.Invoice inv = UsdcPayments.createInvoice(env, chain, amount);
            String tx = UsdcPayments.pay(env, chain, inv);
            while (!UsdcPayments.mined(env, chain, tx)) {
                Thread.sleep(25);
            }
            long mined = System.nanoTime();
            long minedAtMs = System.currentTimeMillis();
            long deadline = mined + Duration.ofSeconds(30).toNanos();
            while (!"SETTLED".equals(UsdcPayments.status(env, inv.id()))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("invoice " + inv.id() + " not settled 30 s after its block");
                }
                Thread.sleep(25);
            }
            out.add(new Sample(chain, inv.id(), tx, minedAtMs, minedAtMs + (System.nanoTime() - mined) / 1_000_000));
        }
        return out;
    }

    private static long pct(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }
}
