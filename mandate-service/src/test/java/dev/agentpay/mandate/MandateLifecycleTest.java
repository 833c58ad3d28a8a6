package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every row of the state table and every rule, through HTTP, with the events read back from Kafka. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class MandateLifecycleTest {

    private static final String UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final String TIME_RE = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    static TestPartner partner;

    // not @BeforeAll: RestAssured points at the application only once a test runs
    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Lifecycle");
        }
    }

    @Test
    void createAnswersProposedAndGetShowsEveryField() {
        String expiry = Api.inDays(10);
        TestMandate m = Api.create(partner, expiry);
        partner.as().contentType("application/json").body(Api.createBody("p", "c", expiry)).post("/v1/mandates")
                .then().statusCode(201)
                .body("success", equalTo(true))
                .body("data.mandate_id", matchesPattern("mnd_" + UUID_RE))
                .body("data.status", equalTo("proposed"))
                .body("data.proposer_signature_required", equalTo(true));

        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getBoolean("success")).isTrue();
        assertThat(j.getString("data.id")).isEqualTo(m.id());
        assertThat(j.getString("data.proposer_agent_id")).isEqualTo(m.proposer());
        assertThat(j.getString("data.counterparty_agent_id")).isEqualTo(m.counterparty());
        assertThat(j.getString("data.scope")).isEqualTo(m.scope());
        assertThat(j.getMap("data.terms")).isEqualTo(Map.of("amount", 100, "currency", "USDC"));
        assertThat(j.getMap("data.context")).isEqualTo(Map.of("source", "test", "chat_id", "c-1"));
        assertThat(j.getString("data.state")).isEqualTo("proposed");
        assertThat(j.getString("data.proto_mandate_hash")).isEqualTo(TestSigner.sha256Hash(m.canonical()));
        assertThat(j.getString("data.proto_version")).isEqualTo("0.1");
        assertThat(j.getString("data.expires_at")).isEqualTo(expiry);
        assertThat(j.getString("data.created_at")).matches(TIME_RE);
        for (String f : List.of("proposer_signature", "counterparty_signature", "signed_by_proposer_at",
                "signed_by_counterparty_at", "completed_at", "dispute_reason", "drs_receipt_id")) {
            assertThat(j.getMap("data")).containsKey(f);
            assertThat((Object) j.get("data." + f)).as(f).isNull();
        }
        assertThat(j.getList("data.transitions")).hasSize(1);
        assertThat(j.getString("data.transitions[0].from_state")).isNull();
        assertThat(j.getString("data.transitions[0].to_state")).isEqualTo("proposed");
        assertThat(j.getMap("data.transitions[0]")).containsKey("anchor_tx_hash");
        assertThat(j.getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(j.getString("data.transitions[0].id")).matches(UUID_RE);
        // the stored terms are the canonical text, byte for byte
        assertThat(Api.get(m).asString()).contains("\"terms\":" + Api.TERMS + ",");

        var events = MandateEvents.get().await(m.id(), 1);
        assertThat(events.get(0).event().type()).isEqualTo("mandate.proposed");
        assertThat(events.get(0).headerType()).isEqualTo("mandate.proposed");
        assertThat(events.get(0).event().transitionId()).isEqualTo(j.getString("data.transitions[0].id"));
        assertThat(events.get(0).event().fromState()).isNull();
        assertThat(events.get(0).event().toState()).isEqualTo("proposed");
        assertThat(events.get(0).event().partnerId()).isEqualTo(partner.id());
        assertThat(events.get(0).event().mandateHash()).isEqualTo(j.getString("data.proto_mandate_hash"));
        assertThat(events.get(0).headerEventId()).isEqualTo(events.get(0).event().eventId().toString());
        assertThat(events.get(0).raw().at("/mandate/id").asText()).isEqualTo(m.id());
        assertThat(events.get(0).raw().at("/mandate/terms/amount").asInt()).isEqualTo(100);
    }

    @Test
    void proposerThenCounterpartySignIssuesAReceipt() {
        TestMandate m = Api.create(partner);
        String sig = m.signature();
        var first = Api.sign(m, "proposer", sig);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.<String>path("data.mandate_id")).isEqualTo(m.id());
        assertThat(first.<String>path("data.status")).isEqualTo("signed_by_proposer");
        assertThat(first.jsonPath().getMap("data")).containsKey("drs_receipt_id");
        assertThat(first.<String>path("data.drs_receipt_id")).isNull();

        var second = Api.sign(m, "counterparty", sig);
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(second.<String>path("data.status")).isEqualTo("signed_by_both");
        String receiptId = second.path("data.drs_receipt_id");
        assertThat(receiptId).matches("drs_" + UUID_RE);

        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.state")).isEqualTo("signed_by_both");
        assertThat(j.getString("data.proposer_signature")).isEqualTo(sig);
        assertThat(j.getString("data.counterparty_signature")).isEqualTo(sig);
        assertThat(j.getString("data.signed_by_proposer_at")).matches(TIME_RE);
        assertThat(j.getString("data.signed_by_counterparty_at")).matches(TIME_RE);
        assertThat(j.getString("data.drs_receipt_id")).isEqualTo(receiptId);
        assertThat(j.getList("data.transitions.to_state")).containsExactly("proposed", "signed_by_proposer", "signed_by_both");
        assertThat(j.getList("data.transitions.from_state")).containsExactly(null, "proposed", "signed_by_proposer");
        assertThat(j.getString("data.transitions[1].metadata.triggered_by")).isEqualTo("proposer");
        assertThat(j.getString("data.transitions[2].metadata.triggered_by")).isEqualTo("counterparty");

        partner.as().get("/v1/receipts/" + receiptId).then().statusCode(200)
                .body("success", equalTo(true))
                .body("data.id", equalTo(receiptId))
                .body("data.mandate_id", equalTo(m.id()))
                .body("data.mandate_hash", equalTo(TestSigner.sha256Hash(m.canonical())))
                .body("data.proposer_signature", equalTo(sig))
                .body("data.counterparty_signature", equalTo(sig))
                .body("data.signed_by_proposer_at", equalTo(j.getString("data.signed_by_proposer_at")))
                .body("data.signed_by_counterparty_at", equalTo(j.getString("data.signed_by_counterparty_at")))
                .body("data.issued_at", matchesPattern(TIME_RE));
        partner.as().get("/v1/receipts/drs_00000000-0000-0000-0000-000000000000").then().statusCode(404)
                .body("error.code", equalTo("receipt_not_found"));

        var events = MandateEvents.get().await(m.id(), 3);
        assertThat(events).extracting(e -> e.event().type())
                .containsExactly("mandate.proposed", "mandate.signed_by_proposer", "mandate.signed_by_both");
        assertThat(events).extracting(e -> e.event().transitionId())
                .containsExactlyElementsOf(j.getList("data.transitions.id"));
        assertThat(events.get(2).event().fromState()).isEqualTo("signed_by_proposer");
        assertThat(events.get(2).raw().at("/mandate/drs_receipt_id").asText()).isEqualTo(receiptId);
        assertThat(events.get(2).raw().at("/mandate/state").asText()).isEqualTo("signed_by_both");
    }

    @Test
    void completeFromSignedByBothPassesThroughInProgress() {
        TestMandate m = Api.signedByBoth(partner);
        var r = Api.post(m, "complete", null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.<String>path("data.mandate_id")).isEqualTo(m.id());
        assertThat(r.<String>path("data.status")).isEqualTo("completed");
        assertThat(r.<String>path("data.completed_at")).matches(TIME_RE);
        assertThat(r.<String>path("data.mandate.state")).isEqualTo("completed");

        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.completed_at")).isEqualTo(r.<String>path("data.completed_at"));
        assertThat(j.getList("data.transitions.to_state"))
                .containsExactly("proposed", "signed_by_proposer", "signed_by_both", "in_progress", "completed");
        assertThat(j.getString("data.transitions[3].from_state")).isEqualTo("signed_by_both");
        assertThat(j.getString("data.transitions[4].from_state")).isEqualTo("in_progress");
        assertThat(j.getString("data.transitions[3].metadata.triggered_by")).isEqualTo("system");
        assertThat(j.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("system");

        var events = MandateEvents.get().await(m.id(), 5);
        assertThat(events).extracting(e -> e.event().type()).endsWith("mandate.in_progress", "mandate.completed");
        assertThat(events.get(3).event().transitionId()).isEqualTo(j.getString("data.transitions[3].id"));
        assertThat(events.get(4).event().transitionId()).isEqualTo(j.getString("data.transitions[4].id"));
        assertThat(events.get(4).raw().at("/mandate/completed_at").asText()).isEqualTo(j.getString("data.completed_at"));
    }

    @Test
    void startThenCompleteFromInProgress() {
        TestMandate m = Api.signedByBoth(partner);
        var started = Api.post(m, "start", Map.of("triggered_by", "agent-worker"));
        assertThat(started.statusCode()).isEqualTo(200);
        assertThat(started.<String>path("data.status")).isEqualTo("in_progress");
        var r = Api.post(m, "complete", Map.of("triggered_by", "agent-42"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.<String>path("data.status")).isEqualTo("completed");
        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getList("data.transitions.to_state")).endsWith("signed_by_both", "in_progress", "completed");
        assertThat(j.getList("data.transitions")).hasSize(5);
        assertThat(j.getString("data.transitions[3].metadata.triggered_by")).isEqualTo("agent-worker");
        assertThat(j.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("agent-42");
        assertThat(MandateEvents.get().await(m.id(), 5)).extracting(e -> e.event().type())
                .endsWith("mandate.in_progress", "mandate.completed");
    }

    @Test
    void disputeFromSignedByBothAndFromInProgress() {
        TestMandate a = Api.signedByBoth(partner);
        var r = Api.post(a, "dispute", Map.of("reason", "deliverable never arrived", "triggered_by", "agent-c"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.<String>path("data.status")).isEqualTo("disputed");
        assertThat(r.<String>path("data.dispute_reason")).isEqualTo("deliverable never arrived");
        JsonPath j = Api.get(a).jsonPath();
        assertThat(j.getString("data.state")).isEqualTo("disputed");
        assertThat(j.getString("data.dispute_reason")).isEqualTo("deliverable never arrived");
        assertThat(j.getString("data.transitions[3].to_state")).isEqualTo("disputed");
        assertThat(j.getString("data.transitions[3].metadata.reason")).isEqualTo("deliverable never arrived");
        assertThat(j.getString("data.transitions[3].metadata.triggered_by")).isEqualTo("agent-c");
        var ea = MandateEvents.get().await(a.id(), 4);
        assertThat(ea.get(3).event().type()).isEqualTo("mandate.disputed");
        assertThat(ea.get(3).raw().at("/mandate/dispute_reason").asText()).isEqualTo("deliverable never arrived");

        TestMandate b = Api.signedByBoth(partner);
        assertThat(Api.post(b, "start", null).statusCode()).isEqualTo(200);
        var rb = Api.post(b, "dispute", Map.of("reason", "quality below spec"));
        assertThat(rb.statusCode()).isEqualTo(200);
        JsonPath jb = Api.get(b).jsonPath();
        assertThat(jb.getString("data.transitions[4].from_state")).isEqualTo("in_progress");
        assertThat(jb.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("system");
    }

    @Test
    void counterpartyBeforeProposerAndRepeatedSignsAreInvalidTransitions() {
        TestMandate m = Api.create(partner);
        var early = Api.sign(m, "counterparty", m.signature());
        assertThat(early.statusCode()).isEqualTo(409);
        assertThat(early.<String>path("error.code")).isEqualTo("invalid_transition");
        assertThat(early.<Boolean>path("success")).isFalse();
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);
        var again = Api.sign(m, "proposer", m.signature());
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.<String>path("error.code")).isEqualTo("invalid_transition");
        assertThat(Api.sign(m, "counterparty", m.signature()).statusCode()).isEqualTo(200);
        assertThat(Api.sign(m, "counterparty", m.signature()).<String>path("error.code")).isEqualTo("invalid_transition");
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(3);
    }

    @Test
    void completeDisputeAndStartOutsideTheirStatesAreInvalidTransitions() {
        TestMandate proposed = Api.create(partner);
        for (String action : List.of("complete", "start")) {
            assertThat(Api.post(proposed, action, null).<String>path("error.code")).isEqualTo("invalid_transition");
        }
        assertThat(Api.post(proposed, "dispute", Map.of("reason", "too early")).statusCode()).isEqualTo(409);
        Api.sign(proposed, "proposer", proposed.signature());
        assertThat(Api.post(proposed, "complete", null).statusCode()).isEqualTo(409);
        assertThat(Api.post(proposed, "dispute", Map.of("reason", "too early")).<String>path("error.code"))
                .isEqualTo("invalid_transition");
        TestMandate inProgress = Api.signedByBoth(partner);
        Api.post(inProgress, "start", null);
        assertThat(Api.post(inProgress, "start", null).statusCode()).isEqualTo(409);
        assertThat(Api.get(proposed).jsonPath().getString("data.state")).isEqualTo("signed_by_proposer");
    }

    @Test
    void terminalStatesRefuseEverything() {
        TestMandate completed = Api.signedByBoth(partner);
        Api.post(completed, "complete", null);
        TestMandate disputed = Api.signedByBoth(partner);
        Api.post(disputed, "dispute", Map.of("reason", "not delivered"));
        for (TestMandate m : List.of(completed, disputed)) {
            int before = Api.get(m).jsonPath().getList("data.transitions").size();
            assertThat(Api.sign(m, "proposer", m.signature()).<String>path("error.code")).isEqualTo("invalid_transition");
            assertThat(Api.sign(m, "counterparty", m.signature()).<String>path("error.code")).isEqualTo("invalid_transition");
            assertThat(Api.post(m, "start", null).<String>path("error.code")).isEqualTo("invalid_transition");
            assertThat(Api.post(m, "complete", null).<String>path("error.code")).isEqualTo("invalid_transition");
            assertThat(Api.post(m, "dispute", Map.of("reason", "again")).<String>path("error.code"))
                    .isEqualTo("invalid_transition");
            assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(before);
        }
    }

    @Test
    void publicViewIsRedacted() {
        TestMandate m = Api.create(partner);
        Api.sign(m, "proposer", m.signature());
        String body = io.restassured.RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("success", equalTo(true))
                .body("data.id", equalTo(m.id()))
                .body("data.state", equalTo("signed_by_proposer"))
                .body("data.mandate_hash", equalTo(TestSigner.sha256Hash(m.canonical())))
                .body("data.anchor_tx_hash", nullValue())
                .body("data.created_at", matchesPattern(TIME_RE))
                .body("data.parties", hasSize(2))
                .body("data.parties[0].role", equalTo("proposer"))
                .body("data.parties[0].agent_id", equalTo(m.proposer()))
                .body("data.parties[0].signed_at", notNullValue())
                .body("data.parties[1].role", equalTo("counterparty"))
                .body("data.parties[1].agent_id", equalTo(m.counterparty()))
                .body("data.parties[1].signed_at", nullValue())
                .extract().asString();
        assertThat(io.restassured.RestAssured.given().get("/v1/public/mandates/" + m.id()).jsonPath().getMap("data"))
                .containsOnlyKeys("id", "state", "mandate_hash", "anchor_tx_hash", "anchor_status", "created_at", "has_budget", "parties");
        assertThat(body).doesNotContain(m.signature()).doesNotContain("USDC").doesNotContain("quarterly")
                .doesNotContain("chat_id");
        io.restassured.RestAssured.given().get("/v1/public/mandates/mnd_nope").then().statusCode(404)
                .body("error.code", equalTo("mandate_not_found"));
    }
}
