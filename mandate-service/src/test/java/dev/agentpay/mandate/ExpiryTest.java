package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.mandates.service.ExpiryJob;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Expiry: the scheduled job (1 s in tests) moves live mandates past {@code expires_at} to {@code expired}
 * with a transition and an event, catches up after a pause, and every later request gets 409
 * {@code mandate_expired}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ExpiryTest {

    @Inject
    Scheduler scheduler;

    static TestPartner partner;

    // not @BeforeAll: RestAssured points at the application only once a test runs
    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Expiry");
        }
    }

    @AfterEach
    void resume() {
        scheduler.resume(ExpiryJob.IDENTITY);
    }

    private static String soon(int seconds) {
        return Api.iso(Instant.now().plusSeconds(seconds).truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    }

    private static String state(TestMandate m) {
        return Api.get(m).jsonPath().getString("data.state");
    }

    @Test
    void theSchedulerExpiresAndEverythingIsRefusedAfterwards() {
        TestMandate m = Api.create(partner, soon(3));
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);
        await("scheduler expiry").atMost(Duration.ofSeconds(20)).until(() -> state(m).equals("expired"));

        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getList("data.transitions.to_state")).containsExactly("proposed", "signed_by_proposer", "expired");
        assertThat(j.getString("data.transitions[2].from_state")).isEqualTo("signed_by_proposer");
        assertThat(j.getString("data.transitions[2].metadata.triggered_by")).isEqualTo("system");
        var events = MandateEvents.get().await(m.id(), 3);
        assertThat(events.get(2).event().type()).isEqualTo("mandate.expired");
        assertThat(events.get(2).event().transitionId()).isEqualTo(j.getString("data.transitions[2].id"));
        assertThat(events.get(2).event().fromState()).isEqualTo("signed_by_proposer");

        var sign = Api.sign(m, "counterparty", m.signature());
        assertThat(sign.statusCode()).isEqualTo(409);
        assertThat(sign.<String>path("error.code")).isEqualTo("mandate_expired");
        for (String action : List.of("start", "complete")) {
            assertThat(Api.post(m, action, null).<String>path("error.code")).isEqualTo("mandate_expired");
        }
        assertThat(Api.post(m, "dispute", Map.of("reason", "too late")).statusCode()).isEqualTo(409);
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(3);
    }

    @Test
    void aRequestAfterExpiryExpiresTheMandateEvenBeforeTheJobRuns() {
        scheduler.pause(ExpiryJob.IDENTITY);
        TestMandate m = Api.signedByBoth(partner);
        TestMandate late = Api.create(partner, soon(2));
        await("expiry to pass").atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(Instant.parse(late.expiresAtIso()).plusMillis(200)));
        io.restassured.RestAssured.given().get("/v1/public/mandates/" + late.id()).then()
                .body("data.state", equalTo("proposed"));
        var r = Api.sign(late, "proposer", late.signature());
        assertThat(r.statusCode()).isEqualTo(409);
        assertThat(r.<String>path("error.code")).isEqualTo("mandate_expired");
        JsonPath j = Api.get(late).jsonPath();
        assertThat(j.getString("data.state")).isEqualTo("expired");
        assertThat(j.getList("data.transitions.to_state")).containsExactly("proposed", "expired");
        assertThat(MandateEvents.get().await(late.id(), 2).get(1).event().type()).isEqualTo("mandate.expired");
        // unaffected: not yet expired
        assertThat(state(m)).isEqualTo("signed_by_both");
    }

    @Test
    void theJobCatchesUpOnEverythingThatExpiredWhileItWasNotRunning() {
        scheduler.pause(ExpiryJob.IDENTITY);
        List<TestMandate> due = new ArrayList<>();
        String when = soon(2);
        for (int i = 0; i < 4; i++) {
            due.add(Api.create(partner, when));
        }
        TestMandate both = Api.create(partner, soon(3));
        Api.sign(both, "proposer", both.signature());
        Api.sign(both, "counterparty", both.signature());
        Api.post(both, "start", null);
        TestMandate done = Api.create(partner, soon(3));
        Api.sign(done, "proposer", done.signature());
        Api.sign(done, "counterparty", done.signature());
        Api.post(done, "complete", null);
        await("expiries to pass").atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(Instant.parse(both.expiresAtIso()).plusMillis(300)));
        for (TestMandate m : due) {
            assertThat(state(m)).isEqualTo("proposed");
        }
        scheduler.resume(ExpiryJob.IDENTITY);
        await("catch-up").atMost(Duration.ofSeconds(20)).until(() -> due.stream().allMatch(m -> state(m).equals("expired"))
                && state(both).equals("expired"));
        assertThat(Api.get(both).jsonPath().getString("data.transitions[4].from_state")).isEqualTo("in_progress");
        // terminal mandates never expire
        assertThat(state(done)).isEqualTo("completed");
    }

    @Test
    void anExpiryInThePastIsRefusedAtCreation() {
        partner.as().contentType("application/json").body(Api.createBody("p", "c", soon(-1))).post("/v1/mandates")
                .then().statusCode(400).body("error.message", equalTo("expiry: must be in the future"));
    }
}
