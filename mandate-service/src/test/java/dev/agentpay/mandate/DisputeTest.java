package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.dispute.service.DisputeDeadlineJob;
import dev.agentpay.mandate.support.AnchorReceipts;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Disputes that end (issue 30): evidence from each side (hashed, anchored like a transition), the case, the
 * arbiter's resolution, the deadline's refund, and every refusal changing nothing.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DisputeTest {

    static TestPartner partner;
    static TestPartner other;

    @Inject
    Pool pool;

    @Inject
    Scheduler scheduler;

    @BeforeEach
    void partners() {
        if (partner == null) {
            partner = Api.newPartner("Disputes");
            other = Api.newPartner("Disputes other");
        }
    }

    @Test
    void evidenceFromBothSidesIsHashedAnchoredAndListedInOrder() throws Exception {
        TestMandate m = disputed("deliverable never arrived");
        var first = evidence(m, partner, Map.of("party", "counterparty", "text", "Delivered on 3 May, see the log.",
                "links", List.of("https://example.com/log.txt"), "triggered_by", "agent-c"));
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(201);
        assertThat(first.<String>path("data.evidence_id")).startsWith("evd_");
        assertThat(first.<String>path("data.sha256")).isEqualTo(sha256("{\"links\":[\"https://example.com/log.txt\"],\"mandate_id\":\""
                + m.id() + "\",\"party\":\"counterparty\",\"text\":\"Delivered on 3 May, see the log.\"}"));
        assertThat(first.<String>path("data.anchor_status")).isEqualTo("pending");
        assertThat(first.<String>path("data.submitted_by")).isEqualTo("agent-c");
        var second = evidence(m, partner, Map.of("party", "proposer", "text", "Nothing arrived: \"quoted\" é\n"));
        assertThat(second.statusCode()).as(second.asString()).isEqualTo(201);
        assertThat(second.<String>path("data.sha256")).isEqualTo(sha256("{\"links\":[],\"mandate_id\":\"" + m.id()
                + "\",\"party\":\"proposer\",\"text\":\"Nothing arrived: \\\"quoted\\\" é\\n\"}"));
        assertThat(second.<List<String>>path("data.links")).isEmpty();
        var third = evidence(m, partner, Map.of("party", "counterparty", "text", "Second piece."));
        assertThat(third.statusCode()).isEqualTo(201);

        JsonPath c = dispute(m).jsonPath();
        assertThat(c.getString("data.status")).isEqualTo("open");
        assertThat(c.getString("data.state")).isEqualTo("disputed");
        assertThat(c.getString("data.reason")).isEqualTo("deliverable never arrived");
        assertThat(c.getString("data.held")).isEqualTo("0");
        assertThat(c.getString("data.deadline_outcome")).isEqualTo("refund_funder");
        assertThat(Duration.between(Instant.parse(c.getString("data.opened_at")), Instant.parse(c.getString("data.deadline_at"))))
                .isEqualTo(Duration.ofDays(14));
        assertThat(c.<String>getList("data.sides.party")).containsExactly("proposer", "counterparty");
        assertThat(c.getString("data.sides[0].agent_id")).isEqualTo(m.proposer());
        assertThat(c.<String>getList("data.sides[0].evidence.evidence_id")).containsExactly(second.<String>path("data.evidence_id"));
        assertThat(c.<String>getList("data.sides[1].evidence.evidence_id"))
                .containsExactly(first.<String>path("data.evidence_id"), third.<String>path("data.evidence_id"));
        assertThat(c.<String>getList("data.sides[1].evidence[0].links")).containsExactly("https://example.com/log.txt");
        assertThat(c.getString("data.resolution")).isNull();

        // each piece is a disputed -> disputed row of the mandate, announced and anchored like a transition
        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.state")).isEqualTo("disputed");
        assertThat(j.getList("data.transitions")).hasSize(7);
        assertThat(j.getString("data.transitions[4].from_state")).isEqualTo("disputed");
        assertThat(j.getString("data.transitions[4].to_state")).isEqualTo("disputed");
        assertThat(j.getString("data.transitions[4].id")).isEqualTo(first.<String>path("data.transition_id"));
        assertThat(j.getString("data.transitions[4].metadata.evidence_id")).isEqualTo(first.<String>path("data.evidence_id"));
        assertThat(j.getString("data.transitions[4].metadata.sha256")).isEqualTo(first.<String>path("data.sha256"));
        assertThat(j.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("agent-c");
        var events = MandateEvents.get().await(m.id(), 7);
        assertThat(events.subList(4, 7)).extracting(e -> e.event().type()).containsOnly("mandate.dispute_evidence");
        assertThat(events.get(4).event().transitionId()).isEqualTo(first.<String>path("data.transition_id"));
        assertThat(events.get(4).event().fromState()).isEqualTo("disputed");
        assertThat(events.get(4).event().toState()).isEqualTo("disputed");

        AnchorReceipts.send(AnchorReceipts.receipt(UUID.randomUUID(), m, j, 4, AnchorReceipts.tx('e'), 77));
        await("evidence anchored").atMost(Duration.ofSeconds(20)).until(() ->
                "anchored".equals(dispute(m).jsonPath().getString("data.sides[1].evidence[0].anchor_status")));
        JsonPath anchored = dispute(m).jsonPath();
        assertThat(anchored.getString("data.sides[1].evidence[0].anchor_tx_hash")).isEqualTo(AnchorReceipts.tx('e'));
        assertThat(anchored.getLong("data.sides[1].evidence[0].anchor_block_number")).isEqualTo(77L);
    }

    @Test
    void evidenceRefusalsChangeNothing() {
        TestMandate m = disputed("late delivery");
        int rows = Api.get(m).jsonPath().getList("data.transitions").size();
        Map<String, Object> ok = Map.of("party", "proposer", "text", "fine");
        assertThat(evidence(m, other, ok).<String>path("error.code")).isEqualTo("mandate_not_found");
        assertThat(evidence(m, other, ok).statusCode()).isEqualTo(404);
        var party = evidence(m, partner, Map.of("party", "seller", "text", "x"));
        assertThat(party.statusCode()).isEqualTo(400);
        assertThat(party.<String>path("error.code")).isEqualTo("invalid_party");
        assertThat(party.<String>path("error.message")).contains("proposer, counterparty");
        var longText = evidence(m, partner, Map.of("party", "proposer", "text", "x".repeat(10_001)));
        assertThat(longText.statusCode()).isEqualTo(400);
        assertThat(longText.<String>path("error.message")).startsWith("text");
        assertThat(evidence(m, partner, Map.of("party", "proposer", "text", "x".repeat(10_000))).statusCode()).isEqualTo(201);
        rows++;
        var sixLinks = evidence(m, partner, Map.of("party", "proposer", "text", "x", "links",
                List.of("https://a/1", "https://a/2", "https://a/3", "https://a/4", "https://a/5", "https://a/6")));
        assertThat(sixLinks.statusCode()).isEqualTo(400);
        assertThat(sixLinks.<String>path("error.message")).startsWith("links");
        var badLink = evidence(m, partner, Map.of("party", "proposer", "text", "x", "links", List.of("javascript:alert(1)")));
        assertThat(badLink.statusCode()).isEqualTo(400);
        assertThat(badLink.<String>path("error.code")).isEqualTo("validation_error");
        assertThat(evidence(m, partner, Map.of("party", "proposer")).<String>path("error.message")).startsWith("text");
        assertThat(evidence(m, partner, Map.of("party", "proposer", "text", "x", "extra", 1)).statusCode()).isEqualTo(400);
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(rows);
        assertThat(dispute(m).jsonPath().getList("data.sides[0].evidence")).hasSize(1);

        TestMandate signed = Api.signedByBoth(partner);
        var notOpen = evidence(signed, partner, ok);
        assertThat(notOpen.statusCode()).isEqualTo(409);
        assertThat(notOpen.<String>path("error.code")).isEqualTo("dispute_not_open");
        assertThat(dispute(signed).statusCode()).isEqualTo(404);
        assertThat(dispute(signed).<String>path("error.code")).isEqualTo("no_dispute");
        assertThat(partner.as().get("/v1/mandates/mnd_unknown/dispute").then().extract().<String>path("error.code"))
                .isEqualTo("mandate_not_found");
        assertThat(other.as().get("/v1/mandates/" + m.id() + "/dispute").statusCode()).isEqualTo(404);
    }

    @Test
    void evidenceHonoursIdempotencyKeys() {
        TestMandate m = disputed("not delivered");
        Map<String, Object> body = Map.of("party", "counterparty", "text", "here is the proof");
        var a = partner.as().header("Idempotency-Key", "ev-" + m.id()).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/dispute/evidence").then().extract();
        var b = partner.as().header("Idempotency-Key", "ev-" + m.id()).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/dispute/evidence").then().extract();
        assertThat(b.statusCode()).isEqualTo(201);
        assertThat(b.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(b.<String>path("data.evidence_id")).isEqualTo(a.<String>path("data.evidence_id"));
        assertThat(dispute(m).jsonPath().getList("data.sides[1].evidence")).hasSize(1);
    }

    @Test
    void theArbiterResolvesWithASplitOfWhatIsHeld() {
        TestMandate m = disputed("quality below spec");
        var mismatch = resolve(m.id(), Map.of("to_counterparty", "1", "to_proposer", "0", "note", "x"));
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(mismatch.<String>path("error.code")).isEqualTo("resolution_sum_mismatch");
        assertThat(mismatch.<String>path("error.held")).isEqualTo("0");
        assertThat(resolve(m.id(), Map.of("to_counterparty", "-1", "to_proposer", "0")).<String>path("error.code"))
                .isEqualTo("validation_error");
        assertThat(resolve(m.id(), Map.of("to_counterparty", "0")).<String>path("error.message")).startsWith("to_proposer");
        assertThat(resolve(m.id(), Map.of("to_counterparty", 0, "to_proposer", "0")).statusCode()).isEqualTo(400);
        assertThat(io.restassured.RestAssured.given().contentType(ContentType.JSON).body(Map.of("to_counterparty", "0",
                "to_proposer", "0")).post("/admin/v1/disputes/" + m.id() + "/resolve").statusCode()).isEqualTo(401);
        assertThat(partner.as().contentType(ContentType.JSON).body(Map.of("to_counterparty", "0", "to_proposer", "0"))
                .post("/admin/v1/disputes/" + m.id() + "/resolve").statusCode()).isEqualTo(401);
        assertThat(resolve("mnd_unknown", Map.of("to_counterparty", "0", "to_proposer", "0")).statusCode()).isEqualTo(404);
        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("disputed");

        var ok = resolve(m.id(), Map.of("to_counterparty", "0", "to_proposer", "0.000", "note", "no money was held"));
        assertThat(ok.statusCode()).as(ok.asString()).isEqualTo(200);
        assertThat(ok.<String>path("data.status")).isEqualTo("resolved");
        assertThat(ok.<String>path("data.resolution.outcome")).isEqualTo("arbiter");
        assertThat(ok.<String>path("data.resolution.to_proposer")).isEqualTo("0");
        assertThat(ok.<String>path("data.resolution.note")).isEqualTo("no money was held");
        assertThat(ok.<String>path("data.mandate.state")).isEqualTo("resolved");

        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.state")).isEqualTo("resolved");
        assertThat(j.getString("data.transitions[4].from_state")).isEqualTo("disputed");
        assertThat(j.getString("data.transitions[4].to_state")).isEqualTo("resolved");
        assertThat(j.getString("data.transitions[4].anchor_status")).isEqualTo("pending");
        assertThat(j.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("arbiter");
        assertThat(j.getString("data.transitions[4].metadata.outcome")).isEqualTo("arbiter");
        assertThat(j.getString("data.transitions[4].metadata.note")).isEqualTo("no money was held");
        var events = MandateEvents.get().await(m.id(), 5);
        assertThat(events.get(4).event().type()).isEqualTo("mandate.dispute_resolved");
        assertThat(events.get(4).event().fromState()).isEqualTo("disputed");
        assertThat(events.get(4).event().toState()).isEqualTo("resolved");
        JsonPath c = dispute(m).jsonPath();
        assertThat(c.getString("data.status")).isEqualTo("resolved");
        assertThat(c.getString("data.resolution.transition_id")).isEqualTo(j.getString("data.transitions[4].id"));

        // resolved is terminal: a repeat, more evidence and every other move are refused, and nothing changes
        assertThat(resolve(m.id(), Map.of("to_counterparty", "0", "to_proposer", "0")).<String>path("error.code"))
                .isEqualTo("dispute_not_open");
        assertThat(evidence(m, partner, Map.of("party", "proposer", "text", "late")).<String>path("error.code"))
                .isEqualTo("dispute_not_open");
        assertThat(Api.post(m, "dispute", Map.of("reason", "again")).<String>path("error.code")).isEqualTo("invalid_transition");
        assertThat(Api.post(m, "complete", null).<String>path("error.code")).isEqualTo("invalid_transition");
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(5);
        TestMandate signed = Api.signedByBoth(partner);
        assertThat(resolve(signed.id(), Map.of("to_counterparty", "0", "to_proposer", "0")).statusCode()).isEqualTo(409);
    }

    @Test
    void anUnresolvedDisputeIsRefundedToTheFunderAtItsDeadline() {
        TestMandate m = disputed("no answer from the seller");
        scheduler.pause(DisputeDeadlineJob.IDENTITY);
        try {
            pastDeadline(m);
            var late = evidence(m, partner, Map.of("party", "counterparty", "text", "too late"));
            assertThat(late.statusCode()).isEqualTo(409);
            assertThat(late.<String>path("error.code")).isEqualTo("dispute_deadline_passed");
        } finally {
            scheduler.resume(DisputeDeadlineJob.IDENTITY);
        }
        await("refunded at the deadline").atMost(Duration.ofSeconds(20))
                .until(() -> "resolved".equals(Api.get(m).jsonPath().getString("data.state")));
        JsonPath c = dispute(m).jsonPath();
        assertThat(c.getString("data.resolution.outcome")).isEqualTo("deadline_refund");
        assertThat(c.getString("data.resolution.to_proposer")).isEqualTo("0");
        assertThat(c.getString("data.resolution.to_counterparty")).isEqualTo("0");
        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.transitions[4].metadata.triggered_by")).isEqualTo("system");
        assertThat(j.getString("data.transitions[4].metadata.outcome")).isEqualTo("deadline_refund");
        assertThat(MandateEvents.get().await(m.id(), 5).get(4).event().type()).isEqualTo("mandate.dispute_resolved");
        assertThat(j.getList("data.transitions")).hasSize(5);
    }

    @Test
    void aDisputeOutlivesTheMandatesExpiry() {
        TestMandate m = disputed("waiting for the arbiter");
        TestMandate control = Api.signedByBoth(partner);
        for (TestMandate t : List.of(m, control)) {
            pool.preparedQuery("update mandate set expires_at = now() - interval '1 second' where id = $1")
                    .execute(Tuple.of(t.id())).await().indefinitely();
        }
        await("the expiry job ran").atMost(Duration.ofSeconds(20))
                .until(() -> "expired".equals(Api.get(control).jsonPath().getString("data.state")));
        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("disputed");
        assertThat(evidence(m, partner, Map.of("party", "proposer", "text", "still open")).statusCode()).isEqualTo(201);
        assertThat(resolve(m.id(), Map.of("to_counterparty", "0", "to_proposer", "0")).statusCode()).isEqualTo(200);
    }

    // ---- helpers -------------------------------------------------------------------------------

    private TestMandate disputed(String reason) {
        TestMandate m = Api.signedByBoth(partner);
        var r = Api.post(m, "dispute", Map.of("reason", reason, "triggered_by", "agent-c"));
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return m;
    }

    private void pastDeadline(TestMandate m) {
        pool.preparedQuery("update mandate_dispute set deadline_at = now() - interval '1 second' where mandate_id = $1")
                .execute(Tuple.of(m.id())).await().indefinitely();
    }

    private static ExtractableResponse<Response> evidence(TestMandate m, TestPartner as, Map<String, Object> body) {
        return as.as().contentType(ContentType.JSON).body(new LinkedHashMap<>(body))
                .post("/v1/mandates/" + m.id() + "/dispute/evidence").then().extract();
    }

    private static ExtractableResponse<Response> dispute(TestMandate m) {
        return m.owner().as().get("/v1/mandates/" + m.id() + "/dispute").then().extract();
    }

    private static ExtractableResponse<Response> resolve(String id, Map<String, Object> body) {
        return Api.admin().contentType(ContentType.JSON).body(body).post("/admin/v1/disputes/" + id + "/resolve").then().extract();
    }

    private static String sha256(String json) throws Exception {
        return "0x" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json.getBytes(StandardCharsets.UTF_8)));
    }
}
