package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.e2e.MandateProofs.Run;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.chain.EvmRpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 31 item 3, "one anchor chain down": the stack anchors every transition on two chains, one anchor-service
 * deployment each. The second chain (base) is frozen (its anvil SIGSTOPped, as a provider outage looks: connections
 * hang) while mandates are signed. The primary chain keeps anchoring them within seconds (they read
 * {@code partially_anchored}); the base deployment's readiness names its chain; after base comes back its anchors
 * catch up, each mandate's in transition order, with the base signer's nonce on chain equal to anchor-service's
 * next nonce (no gap), and the CLI verifies every anchor on both chains.
 */
@Order(81)
class AnchorChainOutageIT {

    /** How long base stays frozen: long enough for several batches to pile up behind it. */
    private static final Duration OUTAGE = Duration.ofSeconds(45);

    @Test
    void oneAnchorChainDownDelaysOnlyItsOwnAnchorsThenCatchesUpInOrder() throws Exception {
        Map<String, String> env = SharedStack.env();
        List<Long> chains = MandateProofs.anchorChains(env);
        assertThat(chains).as("the local stack anchors on two chains").hasSize(2);
        long primary = chains.get(0);
        long second = chains.get(1);
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        long anvil = Long.parseLong(Files.readString(SharedStack.process().stateDir.resolve("pids/anvil-base.pid")).trim());

        List<String> ids = new ArrayList<>();
        FailoverIT.signal("STOP", anvil);
        try {
            for (int i = 0; i < 3; i++) {
                String id = flows.create();
                String sig = flows.signature(flows.get(id));
                flows.sign(id, "proposer", sig);
                flows.sign(id, "counterparty", sig);
                ids.add(id);
            }
            // the primary chain anchors them as if nothing happened
            for (String id : ids) {
                JsonNode m = await("primary anchors of " + id).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                        .until(() -> flows.get(id), cur -> !cur.at("/transitions/1/anchor_tx_hash").isNull()
                                && !cur.at("/transitions/2/anchor_tx_hash").isNull());
                assertThat(m.at("/transitions/2/anchor_chain_id").asLong()).isEqualTo(primary);
            }
            // while base is away, nothing is anchored there: the mandates stay partially anchored
            await("base away").during(OUTAGE.minusSeconds(15)).atMost(OUTAGE).pollInterval(Duration.ofSeconds(1)).until(() ->
                    ids.stream().allMatch(id -> "partially_anchored".equals(flows.get(id).at("/transitions/2/anchor_status").asText())));
            assertThat(anchoringChain(env.get("ANCHOR_SERVICE_BASE_URL"))).as("base's deployment names its chain").isEqualTo(second);
            given().get(env.get("ANCHOR_SERVICE_URL") + "/q/health/ready").then().statusCode(200);
            assertThat(anchoringChain(env.get("ANCHOR_SERVICE_URL"))).isEqualTo(primary);
        } finally {
            FailoverIT.signal("CONT", anvil);
        }

        // base catches up: every transition anchored there too, in order within each mandate
        Path dir = Files.createDirectories(RepoPaths.root().resolve("deploy/e2e/target/proofs"));
        for (String id : ids) {
            JsonNode proof = MandateProofs.awaitAnchored(env, id, 2);
            JsonNode first = MandateProofs.anchorOn(proof, second, 0);
            JsonNode last = MandateProofs.anchorOn(proof, second, 1);
            assertThat(first.get("to_state").asText()).isEqualTo("signed_by_proposer");
            assertThat(last.get("to_state").asText()).isEqualTo("signed_by_both");
            assertThat(first.get("block_number").asLong() * 100_000 + first.get("log_index").asLong())
                    .as("signed_by_proposer before signed_by_both on base").isLessThan(
                            last.get("block_number").asLong() * 100_000 + last.get("log_index").asLong());
            Run r = MandateProofs.verifyWithCli(dir, "outage-proof-", proof, env);
            // HMAC signatures are not publicly checkable (exit 3); every anchor on both chains passes
            assertThat(r.exit()).as(r.out()).isEqualTo(3);
            assertThat(r.out()).as(r.out()).doesNotContain("FAIL ");
            assertThat(r.out().lines().filter(l -> l.strip().startsWith("PASS  anchor:"))).as(r.out()).hasSize(4);
        }

        // no nonce gap: the base signer's next nonce on chain is the one its deployment holds, nothing left pending
        EvmRpc base = new EvmRpc(env.get("ANCHOR_BASE_RPC_URL"));
        String signer = env.get("ANCHOR_BASE_SIGNER_ADDRESS");
        await("base signer settled").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() ->
                nonce(base, signer, "latest") == nonce(base, signer, "pending")
                        && nonce(base, signer, "latest") == storedNextNonce(env, signer));
    }

    /** The chain the {@code anchoring} readiness check of the deployment at {@code url} names. */
    private static long anchoringChain(String url) throws Exception {
        JsonNode health = new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                given().get(url + "/q/health/ready").then().extract().asString());
        for (JsonNode c : health.path("checks")) {
            if ("anchoring".equals(c.path("name").asText())) {
                return c.at("/data/chain_id").asLong();
            }
        }
        throw new AssertionError("no anchoring check in " + health);
    }

    private static long nonce(EvmRpc rpc, String address, String block) throws Exception {
        return Long.decode(rpc.call("eth_getTransactionCount", address, block).asText());
    }

    private static long storedNextNonce(Map<String, String> env, String signer) throws Exception {
        List<String> v = new StackDb(env).strings("anchor_base", "select next_nonce::text from signer_nonce where lower(signer) = lower(?)",
                signer);
        return v.isEmpty() ? -1 : Long.parseLong(v.get(0));
    }
}
