package dev.agentpay.e2e;

import static dev.agentpay.e2e.MandateProofs.newWallet;
import static dev.agentpay.e2e.MandateProofs.proof;
import static dev.agentpay.e2e.MandateProofs.proposeBetweenWallets;
import static dev.agentpay.e2e.MandateProofs.typedData;
import static dev.agentpay.e2e.MandateProofs.verifyWithCli;
import static dev.agentpay.e2e.MandateProofs.verifyWithMcp;
import static dev.agentpay.e2e.MandateProofs.walletSign;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.e2e.MandateProofs.Run;
import dev.agentpay.localstack.RepoPaths;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, "Done when" (rotation half): the anchor signer is rotated on the real stack under load (mandates
 * created and signed all along), through the operator API. One wallet-signed mandate is signed before the rotation
 * (anchored by the old signer) and completed after it (anchored by the new one): its proof carries anchors of both
 * signers, and the independent CLI and the MCP tool verify it (each anchor's sender a signer of the contract at that
 * block); a proof naming the wrong signer fails. Every mandate of the load is anchored, by one signer or the other.
 * The stack anchors every transition on two chains (issue 31 item 3: the anchor chain and base, one anchor-service
 * deployment each): the proofs carry both chains' anchors and the CLI checks each with that chain's RPC.
 * Rotates the shared stack's signer for good (account #0 to #9), so it runs after the other ITs that read it.
 */
@Order(80)
class SignerRotationIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void rotatesUnderLoadAndProofsOfBothSignersVerifyWithTheCli() throws Exception {
        Map<String, String> env = SharedStack.env();
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        String old = env.get("ANCHOR_SIGNER_ADDRESS").toLowerCase(Locale.ROOT);
        String next = env.get("ANCHOR_NEXT_SIGNER_ADDRESS").toLowerCase(Locale.ROOT);
        String active = admin(env).get("/admin/v1/anchor/signers").then().statusCode(200).extract().path("data.active");
        Assumptions.assumeTrue(old.equals(active), "this stack's signer was rotated by an earlier run (active " + active + ")");

        // a wallet mandate signed by both before the rotation: anchored by the old signer
        JsonNode alice = newWallet();
        JsonNode bob = newWallet();
        String id = proposeBetweenWallets(env, alice, bob, "Anchored across a signer rotation",
                Map.of("amount", 12, "currency", "USDC", "deliverable", "rotation.pdf"));
        String typedData = typedData(base, id);
        sign(base, key, id, "proposer", walletSign(alice, typedData));
        sign(base, key, id, "counterparty", walletSign(bob, typedData));
        awaitAnchors(env, id, 2);

        // load: HMAC mandates created and signed by both, two at a time, before, during and after the rotation
        MandateFlows flows = new MandateFlows(base, key, env.get("SIGNING_SECRET"));
        List<String> load = new CopyOnWriteArrayList<>();
        List<Throwable> loadErrors = new CopyOnWriteArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        for (int t = 0; t < 2; t++) {
            pool.submit(() -> {
                while (running.get()) {
                    try {
                        String m = flows.create();
                        String sig = flows.signature(flows.get(m));
                        flows.sign(m, "proposer", sig);
                        flows.sign(m, "counterparty", sig);
                        load.add(m);
                    } catch (Throwable e) {
                        loadErrors.add(e);
                        return;
                    }
                }
            });
        }
        try {
            await("load running").atMost(Duration.ofSeconds(30)).until(() -> load.size() >= 4);
            admin(env).post("/admin/v1/anchor/signers/rotate").then().statusCode(202)
                    .body("data.from_signer", equalTo(old)).body("data.to_signer", equalTo(next));
            admin(env).post("/admin/v1/anchor/signers/rotate").then().statusCode(409)
                    .body("error.code", equalTo("rotation_in_progress")).body("error.message", containsString("waits for"));
            await("rotation done").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() ->
                    admin(env).get("/admin/v1/anchor/signers").then().extract().jsonPath().getString("data.active").equals(next)
                            && admin(env).get("/admin/v1/anchor/signers").then().extract().jsonPath().get("data.in_progress") == null);
            int atDone = load.size();
            await("load goes on after the rotation").atMost(Duration.ofSeconds(60)).until(() -> load.size() >= atDone + 4);
        } finally {
            running.set(false);
            pool.shutdown();
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
        assertThat(loadErrors).isEmpty();

        // the wallet mandate completes after the rotation: its last anchors are the new signer's
        given().baseUri(base).header("x-api-key", key).post("/v1/mandates/" + id + "/complete").then().statusCode(200);
        // anchored on both chains of the stack: on the primary by the old signer, then the new; on base by base's signer
        JsonNode proof = awaitAnchors(env, id, 4);
        long primary = MandateProofs.primaryChain(env);
        assertThat(MandateProofs.anchorOn(proof, primary, 0).get("signer").asText()).isEqualTo(old);
        assertThat(MandateProofs.anchorOn(proof, primary, 3).get("signer").asText()).isEqualTo(next);
        List<Long> chains = MandateProofs.anchorChains(env);
        assertThat(chains).as("the local stack anchors on two chains").hasSize(2);
        String baseSigner = env.get("ANCHOR_BASE_SIGNER_ADDRESS").toLowerCase(Locale.ROOT);
        for (int i = 0; i < 4; i++) {
            assertThat(MandateProofs.anchorOn(proof, chains.get(1), i).get("signer").asText()).isEqualTo(baseSigner);
        }

        Path dir = Files.createDirectories(RepoPaths.root().resolve("deploy/e2e/target/proofs"));
        Run ok = verify(dir, proof, env);
        assertThat(ok.exit()).as(ok.out()).isZero();
        assertThat(ok.out()).contains("\nVERIFIED")
                .contains("PASS  " + MandateProofs.primaryCheck(env, "anchor_signer", "signed_by_both") + ": " + checksum(old))
                .contains("PASS  " + MandateProofs.primaryCheck(env, "anchor_signer", "completed") + ": " + checksum(next))
                .contains("PASS  anchor_signer:completed@" + chains.get(1) + ": " + checksum(baseSigner));
        // each of the 4 transitions checked on each chain with that chain's RPC: its log, and its sender a signer there
        assertThat(ok.out().lines().filter(l -> l.strip().startsWith("PASS  anchor:"))).as(ok.out()).hasSize(8);
        assertThat(ok.out().lines().filter(l -> l.strip().startsWith("PASS  anchor_signer:"))).as(ok.out()).hasSize(8);
        JsonNode mcp = verifyWithMcp(base, id);
        assertThat(mcp.path("verdict").asText()).as(mcp.toString()).isEqualTo("verified");
        assertThat(mcp.toString()).contains("anchor_signer:signed_by_both", "anchor_signer:completed");

        // a proof naming another signer than the one that sent the anchor fails, and says which
        ObjectNode lying = proof.deepCopy();
        MandateProofs.anchorOn(lying, primary, 3).put("signer", old);
        Run bad = verify(dir, lying, env);
        assertThat(bad.exit()).as(bad.out()).isEqualTo(1);
        assertThat(bad.out()).contains("FAIL  anchor_signer:completed").contains("FAILED: anchor_signer:completed");

        // every mandate of the load is anchored (both transitions), by the old signer or the new one, both seen
        List<String> signers = new ArrayList<>();
        for (String m : load) {
            JsonNode p = awaitAnchors(env, m, 2);
            p.get("anchors").forEach(a -> {
                if (a.get("chain_id").asLong() == primary) {
                    signers.add(a.get("signer").asText());
                }
            });
        }
        assertThat(signers).contains(old, next).allMatch(s -> s.equals(old) || s.equals(next));
        // a load mandate anchored by the new signer: nothing fails (HMAC signatures make it unverifiable, not failed)
        String late = load.get(load.size() - 1);
        Run hmac = verify(dir, proof(base, late), env);
        assertThat(hmac.exit()).as(hmac.out()).isEqualTo(3);
        assertThat(hmac.out()).doesNotContain("FAIL ").contains("PASS  anchor_signer:signed_by_both");
    }

    private static String checksum(String address) {
        return org.web3j.crypto.Keys.toChecksumAddress(address);
    }

    private static RequestSpecification admin(Map<String, String> env) {
        return given().baseUri(env.get("ANCHOR_SERVICE_URL")).header("x-admin-key", env.get("ADMIN_API_KEY"));
    }

    private static JsonNode awaitAnchors(Map<String, String> env, String id, int n) {
        return MandateProofs.awaitAnchored(env, id, n);
    }

    private static Run verify(Path dir, JsonNode proof, Map<String, String> env) throws Exception {
        return verifyWithCli(dir, "rotation-proof-", proof, env);
    }

    private static void sign(String base, String key, String id, String signer, String signature) {
        given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("signer", signer, "scheme", "eip712", "signature", signature))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(200);
    }
}
