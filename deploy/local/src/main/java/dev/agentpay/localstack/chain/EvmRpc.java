package dev.agentpay.localstack.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal JSON-RPC client for anvil, enough to install contracts and drive chains in the launcher
 * and in tests: unlocked-account transactions, receipts, calls, and anvil's cheat methods
 * ({@code anvil_setCode}, {@code evm_mine}, {@code evm_snapshot}, {@code evm_revert}).
 */
public final class EvmRpc {

    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * One lock per node and unlocked account: anvil picks the nonce of an {@code eth_sendTransaction} itself, and two
     * sends from the same account at once may both get the same one (the second then fails with "replacement
     * transaction underpriced"). A wallet sends one transaction at a time; so does every {@code EvmRpc} in this JVM.
     */
    private static final ConcurrentMap<String, Object> SENDERS = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;
    private final AtomicLong ids = new AtomicLong();

    public EvmRpc(String url) {
        this.uri = URI.create(url);
    }

    /**
     * Sends one JSON-RPC request; throws with the node's message on an error answer. An {@code eth_sendTransaction}
     * waits for any other send from the same account to the same node in this JVM (see {@link #SENDERS}).
     */
    public JsonNode call(String method, Object... params) {
        if ("eth_sendTransaction".equals(method) && params.length == 1) {
            JsonNode from = JSON.valueToTree(params[0]).path("from");
            if (from.isTextual()) {
                synchronized (SENDERS.computeIfAbsent(uri + " " + from.asText().toLowerCase(Locale.ROOT), k -> new Object())) {
                    return send(method, params);
                }
            }
        }
        return send(method, params);
    }

    private JsonNode send(String method, Object... params) {
        ObjectNode req = JSON.createObjectNode();
        req.put("jsonrpc", "2.0");
        req.put("id", ids.incrementAndGet());
        req.put("method", method);
        ArrayNode arr = req.putArray("params");
        for (Object p : params) {
            arr.add(JSON.valueToTree(p));
        }
        try {
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(uri)
                    .timeout(Duration.ofSeconds(30))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(req)))
                    .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(res.body());
            if (body.has("error")) {
                throw new IllegalStateException(method + " failed: " + body.get("error"));
            }
            return body.get("result");
        } catch (IOException e) {
            throw new IllegalStateException(method + " to " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public long chainId() {
        return Long.decode(call("eth_chainId").asText());
    }

    public long blockNumber() {
        return Long.decode(call("eth_blockNumber").asText());
    }

    /** Sends a transaction from an unlocked account and waits for its receipt; fails on revert. */
    public JsonNode transact(String from, String to, String data) {
        ObjectNode tx = JSON.createObjectNode();
        tx.put("from", from);
        if (to != null) {
            tx.put("to", to);
        }
        tx.put("data", data);
        String hash = call("eth_sendTransaction", tx).asText();
        JsonNode receipt = awaitReceipt(hash, Duration.ofSeconds(60));
        if (!"0x1".equals(receipt.path("status").asText())) {
            throw new IllegalStateException("transaction reverted: " + hash);
        }
        return receipt;
    }

    /** Deploys creation bytecode (constructor arguments already appended) and returns the address. */
    public String deploy(String from, String creationCode) {
        return transact(from, null, creationCode.startsWith("0x") ? creationCode : "0x" + creationCode)
                .get("contractAddress").asText();
    }

    public JsonNode awaitReceipt(String txHash, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode r = call("eth_getTransactionReceipt", txHash);
            if (r != null && !r.isNull()) {
                return r;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("no receipt for " + txHash + " after " + timeout);
    }

    public String ethCall(String to, String data) {
        ObjectNode tx = JSON.createObjectNode();
        tx.put("to", to);
        tx.put("data", data);
        return call("eth_call", tx, "latest").asText();
    }

    /** What an address-returning view without arguments ({@code selector}, 0x and 4 bytes) answers, as a 0x address. */
    public String addressCall(String to, String selector) {
        String word = ethCall(to, selector);
        return "0x" + word.substring(word.length() - 40);
    }

    public String getCode(String address) {
        return call("eth_getCode", address, "latest").asText();
    }

    public void setCode(String address, String runtimeCode) {
        call("anvil_setCode", address, runtimeCode);
    }

    public void mine(int blocks) {
        call("anvil_mine", "0x" + Integer.toHexString(blocks));
    }

    public String snapshot() {
        return call("evm_snapshot").asText();
    }

    public boolean revert(String snapshotId) {
        return call("evm_revert", snapshotId).asBoolean();
    }

    /** ABI word for an address argument. */
    public static String word(String address) {
        String hex = address.toLowerCase().replaceFirst("^0x", "");
        return "0".repeat(64 - hex.length()) + hex;
    }

    /** ABI word for an unsigned integer argument. */
    public static String word(BigInteger value) {
        String hex = value.toString(16);
        return "0".repeat(64 - hex.length()) + hex;
    }
}
