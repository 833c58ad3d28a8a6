package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the wallet-mandate ITs share: viem wallets made and used by a Node script (keys never seen by the
 * service), a mandate's public proof, and its checks by the independent verifier {@code tools/verify-mandate}
 * and by MCP {@code service_verify_mandate}.
 */
final class MandateProofs {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path WALLET = RepoPaths.root().resolve("deploy/e2e/src/test/js/wallet.mjs");
    private static final Path VERIFIER = RepoPaths.root().resolve("tools/verify-mandate/verify.mjs");

    /** A Node run: its exit code and its output (stdout and stderr). */
    record Run(int exit, String out) {
    }

    private MandateProofs() {
    }

    /** A new wallet: {@code {"address": .., "privateKey": ..}}. */
    static JsonNode newWallet() throws Exception {
        return JSON.readTree(node(List.of(WALLET.toString(), "new"), null).out());
    }

    /** The wallet's EIP-712 signature over {@code typedData} (JSON). */
    static String walletSign(JsonNode wallet, String typedData) throws Exception {
        return node(List.of(WALLET.toString(), "sign", wallet.get("privateKey").asText()), typedData).out().trim();
    }

    /** The wallet's agent id on the stack's anchor chain: {@code eip155:<chain id>:<address>}. */
    static String walletId(Map<String, String> env, JsonNode wallet) {
        return "eip155:" + env.get("ANCHOR_CHAIN_ID") + ":" + wallet.get("address").asText();
    }

    /** Proposes a mandate from the wallet {@code proposer} to the wallet {@code counterparty}, expiring in 3 days; its id. */
    static String proposeBetweenWallets(Map<String, String> env, JsonNode proposer, JsonNode counterparty, String scope,
            Map<String, Object> terms) {
        Map<String, Object> body = Map.of("proposer", walletId(env, proposer), "counterparty", walletId(env, counterparty),
                "scope", scope, "terms", terms, "expiry", Instant.now().plus(3, ChronoUnit.DAYS).toString());
        return given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body(body).post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
    }

    /** The typed data the mandate's proof publishes (JSON), as a wallet shows it to its owner and signs it. */
    static String typedData(String base, String id) throws IOException {
        return JSON.writeValueAsString(proof(base, id).get("typed_data"));
    }

    /** The mandate's public proof (the {@code data} of {@code GET /v1/public/mandates/{id}/proof}). */
    static JsonNode proof(String base, String id) throws IOException {
        String body = given().baseUri(base).get("/v1/public/mandates/" + id + "/proof").then().statusCode(200)
                .extract().asString();
        return JSON.readTree(body).get("data");
    }

    /**
     * The independent CLI's check of {@code proof}, written to a new file {@code prefix*.json} in {@code dir}, with one
     * {@code --rpc-url chainId=url} per anchor chain of the stack ({@code ANCHOR_RPC_URLS}).
     */
    static Run verifyWithCli(Path dir, String prefix, JsonNode proof, Map<String, String> env) throws Exception {
        Path file = Files.createTempFile(dir, prefix, ".json");
        Files.writeString(file, JSON.writeValueAsString(proof));
        List<String> args = new ArrayList<>(List.of(VERIFIER.toString(), "--proof", file.toString()));
        for (String pair : env.getOrDefault("ANCHOR_RPC_URLS", env.get("ANCHOR_CHAIN_ID") + "=" + env.get("ANCHOR_RPC_URL")).split(",")) {
            args.add("--rpc-url");
            args.add(pair.trim());
        }
        return node(args, null);
    }

    /** The chains every transition is anchored on ({@code ANCHOR_CHAINS}, primary first). */
    static List<Long> anchorChains(Map<String, String> env) {
        return java.util.Arrays.stream(env.getOrDefault("ANCHOR_CHAINS", env.get("ANCHOR_CHAIN_ID")).split(","))
                .map(String::trim).map(Long::parseLong).toList();
    }

    /**
     * The proof once all {@code transitions} after creation are anchored on every chain of the stack: one anchor per
     * transition and chain, {@code anchor_status} {@code anchored}.
     */
    static JsonNode awaitAnchored(Map<String, String> env, String id, int transitions) {
        int want = transitions * anchorChains(env).size();
        return org.awaitility.Awaitility.await("anchors of " + id + " on " + anchorChains(env)).atMost(java.time.Duration.ofSeconds(120))
                .pollInterval(java.time.Duration.ofMillis(250)).until(() -> {
                    JsonNode p = proof(env.get("BASE_URL"), id);
                    return p.get("anchors").size() == want && "anchored".equals(p.path("anchor_status").asText()) ? p : null;
                }, java.util.Objects::nonNull);
    }

    /** The {@code index}-th anchor of the proof on chain {@code chainId} (in transition order), to read or to tamper with. */
    static com.fasterxml.jackson.databind.node.ObjectNode anchorOn(JsonNode proof, long chainId, int index) {
        List<JsonNode> on = new ArrayList<>();
        proof.get("anchors").forEach(a -> {
            if (a.get("chain_id").asLong() == chainId) {
                on.add(a);
            }
        });
        return (com.fasterxml.jackson.databind.node.ObjectNode) on.get(index);
    }

    /**
     * The names the verifiers give the checks of {@code kind} ({@code anchor} or {@code anchor_signer}) of each state: one
     * per anchor chain of the stack, {@code <kind>:<state>@<chainId>}, when the stack anchors on several chains (else
     * {@code <kind>:<state>}).
     */
    static List<String> anchorChecks(Map<String, String> env, String kind, String... states) {
        List<Long> chains = anchorChains(env);
        List<String> out = new ArrayList<>();
        for (String state : states) {
            if (chains.size() == 1) {
                out.add(kind + ":" + state);
            } else {
                chains.forEach(c -> out.add(kind + ":" + state + "@" + c));
            }
        }
        return out;
    }

    /** The name of the check of {@code kind} of {@code state} on the primary chain (see {@link #anchorChecks}). */
    static String primaryCheck(Map<String, String> env, String kind, String state) {
        return anchorChains(env).size() == 1 ? kind + ":" + state : kind + ":" + state + "@" + primaryChain(env);
    }

    /** The primary anchor chain's id ({@code ANCHOR_CHAIN_ID}, the EIP-712 domain's). */
    static long primaryChain(Map<String, String> env) {
        return Long.parseLong(env.get("ANCHOR_CHAIN_ID"));
    }

    /** The MCP tool {@code service_verify_mandate}'s report on the mandate (its structured content). */
    static JsonNode verifyWithMcp(String base, String id) throws IOException {
        String req = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call",
                "params", Map.of("name", "service_verify_mandate", "arguments", Map.of("mandate_id", id))));
        String body = given().baseUri(base).contentType("application/json").accept("application/json, text/event-stream")
                .body(req).post("/disco/mcp").then().statusCode(200).extract().asString();
        JsonNode result = JSON.readTree(body).path("result");
        assertThat(result.path("isError").asBoolean(true)).as(body).isFalse();
        return result.path("structuredContent");
    }

    /** The names of a report's checks that passed ({@code passed}) or failed (not those neither, e.g. notes). */
    static List<String> checkNames(JsonNode report, boolean passed) {
        List<String> out = new ArrayList<>();
        report.path("checks").forEach(c -> {
            if (c.path("ok").isBoolean() && c.path("ok").asBoolean() == passed) {
                out.add(c.path("name").asText());
            }
        });
        return out;
    }

    /** Runs {@code node args...} with {@code stdin} (or none); exit code 2 (a script error) fails the test. */
    private static Run node(List<String> args, String stdin) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add("node");
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (stdin != null) {
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("node " + args + " did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() == 2) {
            throw new AssertionError("node " + args + " failed: " + text);
        }
        return new Run(p.exitValue(), text);
    }
}
