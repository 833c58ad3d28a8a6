package dev.agentpay.bench.settlement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * every 25 ms). One thread per EVM chain, {@code PER_CHAIN} payments each.
 *
 * <pre>java -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.settlement.SettlementLatency [.local/stack.env] [PER_CHAIN]</pre>
 */
public final class SettlementLatency {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final List<String> CHAINS = List.of("base", "polygon", "arbitrum", "skale");

    public static void main(String[] args) throws Exception {
        Map<String, String> env = readEnv(Path.of(args.length > 0 ? args[0] : ".local/stack.env"));
        int perChain = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        ExecutorService pool = Executors.newFixedThreadPool(CHAINS.size());
        List<Future<List<Long>>> futures = new ArrayList<>();
        for (int c = 0; c < CHAINS.size(); c++) {
            String chain = CHAINS.get(c);
            int offset = c;
            futures.add(pool.submit(() -> run(env, chain, perChain, offset)));
        }
        List<Long> all = new ArrayList<>();
        for (Future<List<Long>> f : futures) {
            all.addAll(f.get());
        }
        pool.shutdown();
        Collections.sort(all);
        System.out.printf("| payments | p50 ms | p90 ms | p99 ms | max ms |%n|---|---|---|---|---|%n| %d | %d | %d | %d | %d |%n",
                all.size(), pct(all, 0.50), pct(all, 0.90), pct(all, 0.99), all.get(all.size() - 1));
    }

    private static List<Long> run(Map<String, String> env, String chain, int n, int offset) throws Exception {
        String rpc = env.get("CHAIN_" + chain.toUpperCase() + "_RPC_URL");
        String payer = env.get("DEV_PAYER_ADDRESS");
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Distinct amounts per run so open invoices of earlier runs do not shift the payable amount.
            String amount = String.format("%d.%02d", 2 + offset, (System.nanoTime() / 1000) % 100);
            JsonNode inv = api(env, "POST", "/v1/invoices", "{\"amount\":" + amount + ",\"chain\":\"" + chain + "\"}");
            String id = inv.at("/data/id").asText();
            JsonNode pd = inv.at("/data/paymentDetails");
            String data = "0xa9059cbb" + word(pd.get("paymentAddress").asText()) + word(new BigInteger(pd.get("payableAtomic").asText()));
            String tx = rpc(rpc, "eth_sendTransaction", Map.of("from", payer, "to", pd.get("usdcAddress").asText(), "data", data)).asText();
            while (rpc(rpc, "eth_getTransactionReceipt", tx).isNull()) {
                Thread.sleep(25);
            }
            long mined = System.nanoTime();
            long deadline = mined + Duration.ofSeconds(30).toNanos();
            while (!"SETTLED".equals(api(env, "GET", "/v1/invoices/" + id, null).at("/data/status").asText())) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("invoice " + id + " not settled 30 s after its block");
                }
                Thread.sleep(25);
            }
            out.add((System.nanoTime() - mined) / 1_000_000);
        }
        return out;
    }

    private static JsonNode api(Map<String, String> env, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(env.get("BASE_URL") + path))
                .header("x-api-key", env.get("API_KEY")).timeout(Duration.ofSeconds(10));
        b = body == null ? b.GET() : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return JSON.readTree(r.body());
    }

    private static JsonNode rpc(String url, String method, Object param) throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", List.of(param)));
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode n = JSON.readTree(r.body());
        if (n.has("error")) {
            throw new IllegalStateException(method + ": " + n.get("error"));
        }
        return n.get("result");
    }

    private static String word(String address) {
        return "0".repeat(24) + address.substring(2).toLowerCase();
    }

    private static String word(BigInteger v) {
        String h = v.toString(16);
        return "0".repeat(64 - h.length()) + h;
    }

    private static long pct(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return env;
    }
}
