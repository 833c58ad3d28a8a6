package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.AnchorReceipts.send;
import static dev.agentpay.mandate.support.AnchorReceipts.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Anchoring on several chains (issue 31): with {@code ANCHOR_CHAINS=84532,8453} every transition waits for both
 * chains' receipts. One chain's receipt makes it {@code partially_anchored}; the primary chain's (84532) fills the
 * transition's {@code anchor_*}; every chain's is in {@code anchors} and the proof; each receipt is announced by its
 * own {@code mandate.anchored} naming the chain.
 */
@QuarkusTest
@TestProfile(AnchorChainsTest.TwoChains.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AnchorChainsTest {

    /** Anchored on the Base Sepolia anchor chain (primary) and on base. */
    public static class TwoChains implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mandate.anchor-chains", "84532,8453");
        }
    }

    @Test
    void aTransitionIsPartiallyAnchoredUntilEveryChainHasItsReceipt() {
        TestPartner p = Api.newPartner("TwoChains");
        TestMandate m = Api.signedByBoth(p);
        JsonPath j = Api.get(m).jsonPath();

        // base first, for the last transition: partially anchored, and the primary's columns stay empty
        send(receipt(m, j, 2, 8453L, tx('b'), 7));
        await("base anchor").atMost(Duration.ofSeconds(20)).until(() ->
                "partially_anchored".equals(Api.get(m).jsonPath().getString("data.transitions[2].anchor_status")));
        JsonPath partial = Api.get(m).jsonPath();
        assertThat(partial.getString("data.transitions[2].anchor_tx_hash")).as("the primary chain's anchor").isNull();
        assertThat(partial.<Integer>getList("data.transitions[2].anchors.chain_id")).containsExactly(8453);
        assertThat(partial.getString("data.transitions[1].anchor_status")).isEqualTo("pending");
        JsonPath proof = proof(m);
        assertThat(proof.getString("data.anchor_status")).isEqualTo("pending");
        assertThat(proof.<String>getList("data.pending_anchors.anchor_status")).containsExactly("pending", "partially_anchored");

        send(receipt(m, j, 1, 84532L, tx('c'), 100));
        send(receipt(m, j, 1, 8453L, tx('d'), 8));
        await("both chains of signed_by_proposer").atMost(Duration.ofSeconds(20)).until(() ->
                "anchored".equals(Api.get(m).jsonPath().getString("data.transitions[1].anchor_status")));
        assertThat(proof(m).getString("data.anchor_status")).as("every transition has a receipt, one lacks a chain")
                .isEqualTo("partially_anchored");
        RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("data.anchor_status", org.hamcrest.Matchers.equalTo("partially_anchored"));

        send(receipt(m, j, 2, 84532L, tx('e'), 101));
        await("both chains of signed_by_both").atMost(Duration.ofSeconds(20)).until(() ->
                "anchored".equals(proof(m).getString("data.anchor_status")));
        JsonPath done = Api.get(m).jsonPath();
        assertThat(done.<String>getList("data.transitions.anchor_status")).containsExactly("none", "anchored", "anchored");
        assertThat(done.getString("data.transitions[2].anchor_tx_hash")).isEqualTo(tx('e'));
        assertThat(done.getLong("data.transitions[2].anchor_chain_id")).isEqualTo(84532L);
        assertThat(done.<String>getList("data.transitions[2].anchors.tx_hash")).containsExactly(tx('b'), tx('e'));
        JsonPath finalProof = proof(m);
        assertThat(finalProof.<String>getList("data.pending_anchors")).isEmpty();
        assertThat(finalProof.<String>getList("data.anchors.to_state"))
                .containsExactly("signed_by_proposer", "signed_by_proposer", "signed_by_both", "signed_by_both");
        assertThat(finalProof.<Integer>getList("data.anchors.chain_id")).containsExactly(8453, 84532, 8453, 84532);
        RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("data.anchor_status", org.hamcrest.Matchers.equalTo("anchored"))
                .body("data.anchor_tx_hash", org.hamcrest.Matchers.equalTo(tx('e')));

        // one mandate.anchored per transition and chain, each naming its chain and tx
        await("four mandate.anchored").atMost(Duration.ofSeconds(20)).until(() -> anchored(m).size() >= 4);
        List<MandateEvents.Received> events = anchored(m);
        assertThat(events).hasSize(4);
        assertThat(events).extracting(e -> e.event().mandate().at("/anchor/chain_id").asLong() + ":"
                        + e.event().mandate().at("/anchor/tx_hash").asText() + ":" + e.event().mandate().at("/anchor/to_state").asText())
                .containsExactly("8453:" + tx('b') + ":signed_by_both", "84532:" + tx('c') + ":signed_by_proposer",
                        "8453:" + tx('d') + ":signed_by_proposer", "84532:" + tx('e') + ":signed_by_both");
    }

    private static AnchorReceiptEvent receipt(TestMandate m, JsonPath j, int index, long chainId, String txHash, long block) {
        return new AnchorReceiptEvent(new EventHeader(UUID.randomUUID(), AnchorReceiptEvent.TYPE, m.id(), m.owner().id(),
                Instant.now(), 1), j.getString("data.transitions[" + index + "].id"), j.getString("data.proto_mandate_hash"),
                j.getString("data.transitions[" + index + "].to_state"), chainId, txHash, block, 0,
                chainId == 84532L ? "0x" + "1".repeat(40) : "0x" + "2".repeat(40), null);
    }

    private static JsonPath proof(TestMandate m) {
        return RestAssured.given().get("/v1/public/mandates/" + m.id() + "/proof").then().statusCode(200).extract().jsonPath();
    }

    private static List<MandateEvents.Received> anchored(TestMandate m) {
        return MandateEvents.get().of(m.id()).stream().filter(e -> MandateEvent.ANCHORED.equals(e.event().type())).toList();
    }
}
