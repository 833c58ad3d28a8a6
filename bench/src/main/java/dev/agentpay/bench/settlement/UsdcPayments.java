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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Invoices paid the way a buyer pays them on the local stack: created through the gateway ({@code POST /v1/invoices}),
 * paid by a USDC {@code transfer} from the dev payer ({@code DEV_PAYER_ADDRESS}, unlocked on every anvil chain) to the
 * invoice's payment address. Shared by {@link SettlementLatency} and the soak driver ({@code bench.soak.Soak}).
 */
public final class UsdcPayments {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private UsdcPayments() {
    }

    /** An invoice created for payment: its id and what to pay where. */
    public record Invoice(String id, String paymentAddress, String usdcAddress, BigInteger payableAtomic) {
    }

    /** Creates an invoice of {@code amount} (a decimal string, e.g. {@code "2.37"}) on {@code chain} (e.g. {@code base}). */
    public static Invoice createInvoice(Map<String, String> env, String chain, String amount) throws Exception {
        JsonNode inv = api(env, "POST", "/v1/invoices", "{\"amount\":" + amount + ",\"chain\":\"" + chain + "\"}");
        JsonNode pd = inv.at("/data/paymentDetails");
        return new Invoice(inv.at("/data/id").asText(), pd.get("paymentAddress").asText(), pd.get("usdcAddress").asText(),
                new BigInteger(pd.get("payableAtomic").asText()));
    }

    /** Sends the USDC transfer that pays {@code invoice} in full on {@code chain}; returns the transaction hash (not mined yet). */
    public static String pay(Map<String, String> env, String chain, Invoice invoice) throws Exception {
        String data = "0xa9059cbb" + word(invoice.paymentAddress()) + word(invoice.payableAtomic());
        return rpc(rpcUrl(env, chain), "eth_sendTransaction",
                Map.of("from", env.get("DEV_PAYER_ADDRESS"), "to", invoice.usdcAddress(), "data", data)).asText();
    }

    /** Whether the transaction has a receipt (is mined). */
    public static boolean mined(Map<String, String> env, String chain, String txHash) throws Exception {
        return !rpc(rpcUrl(env, chain), "eth_getTransactionReceipt", txHash).isNull();
    }

    /** The invoice's status as {@code GET /v1/invoices/{id}} answers it (e.g. {@code SETTLED}). */
    public static String status(Map<String, String> env, String invoiceId) throws Exception {
        return api(env, "GET", "/v1/invoices/" + invoiceId, null).at("/data/status").asText();
    }

    static String rpcUrl(Map<String, String> env, String chain) {
        return env.get("CHAIN_" + chain.toUpperCase() + "_RPC_URL");
    }

    /** A call through the gateway with the dev partner's key; a status of 300 or more throws. */
    public static JsonNode api(Map<String, String> env, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(env.get("BASE_URL") + path))
                .header("x-api-key", env.get("API_KEY")).timeout(Duration.ofSeconds(10));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body().isEmpty() ? JSON.nullNode() : JSON.readTree(r.body());
    }

    static JsonNode rpc(String url, String method, Object param) throws Exception {
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

    /** The stack contract ({@code stack.env}) over the process environment. */
    public static Map<String, String> readEnv(Path file) throws IOException {
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
