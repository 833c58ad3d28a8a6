package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The escrow of a mandate from settlement-watcher's {@code escrow-events} (issue 30), published to the real broker as
 * settlement-watcher would: the view on the mandate, the budget and the dispute case, the {@code mandate.escrow_*}
 * events, redelivery, reorg rollback, unknown and malformed records; and the commands of the dispute workflow on
 * {@code escrow-commands}: freeze on dispute, resolve with the arbiter's split or the deadline's refund.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class EscrowEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONTRACT = "0x" + "e5".repeat(20);
    private static final AtomicLong BLOCK = new AtomicLong(100);

    static TestPartner partner;
    static ConsumerTask<String, String> commands;
    static ConsumerTask<String, String> deadLetters;

    @Inject
    Pool pool;

    @BeforeEach
    void setUp() {
        if (partner == null) {
            partner = Api.newPartner("Escrow");
            commands = TestKafka.collect(Topics.ESCROW_COMMANDS);
            deadLetters = TestKafka.collect(Topics.DLT_MANDATE_ESCROW_EVENTS);
        }
    }

    /** One escrow on one chain for one mandate, and the events settlement-watcher would publish for it. */
    record Escrow(String mandateId, String hash, String escrowId) {

        EscrowEvent event(String type, String amount, String funded, String released, String withdrawn, String refunded,
                String held, String state) {
            return new EscrowEvent(new EventHeader(UUID.randomUUID(), type, hash, null, Instant.now(), EscrowEvent.SCHEMA_VERSION),
                    "base", CONTRACT, escrowId, hash, "0x" + UUID.randomUUID().toString().replace("-", "").repeat(2), 0,
                    BLOCK.incrementAndGet(), "0x" + "bb".repeat(32), amount, null, null, null, "0x" + "f0".repeat(20),
                    "0x" + "c0".repeat(20), null, null, 2_000_000_000L,
                    new EscrowEvent.Totals(funded, released, withdrawn, refunded, held), state, null, null, null);
        }
    }

    @Test
    void theEscrowViewFollowsTheChainOnceEachAndRollsBack() {
        Budgeted m = signedBudget("10.00");
        Escrow e = escrow(m.id());
        send(e.event(EscrowEvent.FUNDED, "10000000", "10000000", "0", "0", "0", "10000000", "active"));
        await("funded").atMost(Duration.ofSeconds(20)).until(() -> "10".equals(mandate(m.id()).getString("data.escrow.held")));
        JsonPath j = mandate(m.id());
        assertThat(j.getString("data.escrow.chain")).isEqualTo("base");
        assertThat(j.getString("data.escrow.contract")).isEqualTo(CONTRACT);
        assertThat(j.getString("data.escrow.escrow_id")).isEqualTo(e.escrowId());
        assertThat(j.getString("data.escrow.funded")).isEqualTo("10");
        assertThat(j.getString("data.escrow.state")).isEqualTo("active");
        assertThat(partner.as().get("/v1/mandates/" + m.id() + "/budget").then().extract().<String>path("data.escrow.held"))
                .isEqualTo("10");

        EscrowEvent released = e.event(EscrowEvent.RELEASED, "2500000", "10000000", "2500000", "0", "0", "7500000", "active");
        send(released);
        send(released); // redelivered: applied once
        EscrowEvent withdrawn = e.event(EscrowEvent.WITHDRAWN, "500000", "10000000", "2500000", "500000", "0", "7000000", "active");
        send(withdrawn);
        await("withdrawn").atMost(Duration.ofSeconds(20)).until(() -> "7".equals(mandate(m.id()).getString("data.escrow.held")));
        await("released announced").atMost(Duration.ofSeconds(20)).until(() -> types(m.id()).size() >= 5);
        JsonNode releasedEvent = MandateEvents.get().of(m.id()).get(4).raw();
        assertThat(releasedEvent.at("/mandate/escrow/held").asText()).isEqualTo("7.5");
        assertThat(releasedEvent.at("/mandate/escrow_event/amount").asText()).isEqualTo("2.5");
        assertThat(releasedEvent.at("/mandate/escrow_event/tx_hash").asText()).isEqualTo(released.txHash());
        assertThat(releasedEvent.at("/transitionId").isNull() || releasedEvent.at("/transitionId").isMissingNode()).isTrue();

        // a reorg removed the withdrawal: the view reads the release again
        send(new EscrowEvent(new EventHeader(UUID.randomUUID(), EscrowEvent.ROLLED_BACK, e.hash(), null, Instant.now(), 1),
                "base", CONTRACT, e.escrowId(), e.hash(), withdrawn.txHash(), 0, withdrawn.blockNumber(), null, null, null, null, null,
                null, null, null, null, null, null, null, null, null, withdrawn.eventId().toString()));
        await("rolled back").atMost(Duration.ofSeconds(20)).until(() -> "7.5".equals(mandate(m.id()).getString("data.escrow.held")));
        assertThat(mandate(m.id()).getString("data.escrow.withdrawn")).isEqualTo("0");

        // the funder's refund after expiry; its announcement also shows the redelivered release was announced once
        send(e.event(EscrowEvent.REFUNDED, "7500000", "10000000", "2500000", "0", "7500000", "0", "refunded"));
        await("refunded").atMost(Duration.ofSeconds(20)).until(() -> types(m.id()).contains("mandate.escrow_refunded"));
        assertThat(types(m.id())).containsExactly("mandate.proposed", "mandate.signed_by_proposer", "mandate.signed_by_both",
                "mandate.escrow_funded", "mandate.escrow_released", "mandate.escrow_refunded");
        assertThat(mandate(m.id()).getString("data.escrow.state")).isEqualTo("refunded");
        assertThat(mandate(m.id()).getString("data.escrow.held")).isEqualTo("0");
    }

    @Test
    void unknownMandatesChangeNothingAndMalformedRecordsAreDeadLettered() {
        Escrow stranger = new Escrow("none", "0x" + "ab".repeat(32), "0x" + "cd".repeat(32));
        send(stranger.event(EscrowEvent.FUNDED, "1", "1", "0", "0", "0", "1", "active"));
        String badId = UUID.randomUUID().toString();
        TestKafka.send(TestKafka.record(Topics.ESCROW_EVENTS, "k", "{\"eventId\":\"" + badId + "\",\"type\":\"escrow.funded\","
                + "\"mandateHash\":\"not a hash\"}", badId, "escrow.funded"));
        await("dead-lettered").atMost(Duration.ofSeconds(20)).until(() -> deadLetters.getRecords().stream()
                .anyMatch(r -> r.value().contains(badId)));
        Budgeted m = signedBudget("1.00");
        Escrow marker = escrow(m.id());
        send(marker.event(EscrowEvent.FUNDED, "1000000", "1000000", "0", "0", "0", "1000000", "active"));
        await("the consumer moved past them").atMost(Duration.ofSeconds(20))
                .until(() -> "1".equals(mandate(m.id()).getString("data.escrow.held")));
        long rows = pool.preparedQuery("select count(*) from mandate_escrow_event where escrow_id = $1")
                .execute(Tuple.of(stranger.escrowId())).await().indefinitely().iterator().next().getLong(0);
        assertThat(rows).isZero();
    }

    @Test
    void aDisputeFreezesTheEscrowAndTheArbitersSplitResolvesIt() throws Exception {
        Budgeted m = signedBudget("10.00");
        Escrow e = escrow(m.id());
        send(e.event(EscrowEvent.FUNDED, "10000000", "10000000", "0", "0", "0", "10000000", "active"));
        send(e.event(EscrowEvent.RELEASED, "2000000", "10000000", "2000000", "0", "0", "8000000", "active"));
        await("funded and released").atMost(Duration.ofSeconds(20)).until(() -> "8".equals(mandate(m.id()).getString("data.escrow.held")));

        partner.as().contentType(ContentType.JSON).body(Map.of("reason", "half the work is missing"))
                .post("/v1/mandates/" + m.id() + "/dispute").then().statusCode(200);
        JsonNode freeze = awaitCommand(e.hash(), EscrowCommand.FREEZE);
        assertThat(freeze.get("chain").asText()).isEqualTo("base");
        assertThat(freeze.get("escrowId").asText()).isEqualTo(e.escrowId());
        assertThat(freeze.get("mandateHash").asText()).isEqualTo(e.hash());
        assertThat(freeze.get("commandId").asText()).isNotBlank();

        var early = resolve(m.id(), "6", "2");
        assertThat(early.then().extract().<String>path("error.code")).isEqualTo("escrow_not_frozen");
        assertThat(early.statusCode()).isEqualTo(409);
        send(e.event(EscrowEvent.FROZEN, null, "10000000", "2000000", "0", "0", "8000000", "frozen"));
        await("frozen").atMost(Duration.ofSeconds(20)).until(() -> "frozen".equals(mandate(m.id()).getString("data.escrow.state")));
        JsonPath c = partner.as().get("/v1/mandates/" + m.id() + "/dispute").then().statusCode(200).extract().jsonPath();
        assertThat(c.getString("data.held")).isEqualTo("8");
        assertThat(c.getString("data.escrow.state")).isEqualTo("frozen");
        var mismatch = resolve(m.id(), "6", "1");
        assertThat(mismatch.statusCode()).isEqualTo(400);
        assertThat(mismatch.then().extract().<String>path("error.held")).isEqualTo("8");
        assertThat(resolve(m.id(), "6", "2").statusCode()).isEqualTo(200);
        JsonNode resolveCommand = awaitCommand(e.hash(), EscrowCommand.RESOLVE);
        assertThat(resolveCommand.get("toCounterparty").asText()).isEqualTo("6000000");
        assertThat(resolveCommand.get("toProposer").asText()).isEqualTo("2000000");
        assertThat(resolveCommand.get("escrowId").asText()).isEqualTo(e.escrowId());

        EscrowEvent resolved = e.event(EscrowEvent.RESOLVED, null, "10000000", "8000000", "0", "2000000", "0", "resolved");
        send(new EscrowEvent(resolved.header(), resolved.chain(), resolved.contract(), resolved.escrowId(), resolved.mandateHash(),
                resolved.txHash(), resolved.logIndex(), resolved.blockNumber(), resolved.blockHash(), null, null, "6000000", "2000000",
                null, null, null, null, null, resolved.totals(), resolved.state(), null, null, null));
        await("resolved on chain").atMost(Duration.ofSeconds(20)).until(() -> types(m.id()).contains("mandate.escrow_resolved"));
        JsonNode announced = MandateEvents.get().of(m.id()).stream().filter(r -> r.event().type().equals("mandate.escrow_resolved"))
                .findFirst().orElseThrow().raw();
        assertThat(announced.at("/mandate/escrow_event/to_counterparty").asText()).isEqualTo("6");
        assertThat(announced.at("/mandate/escrow/held").asText()).isEqualTo("0");
        long done = pool.preparedQuery("select count(*) from mandate_escrow_command where mandate_id = $1 and status = 'done'")
                .execute(Tuple.of(m.id())).await().indefinitely().iterator().next().getLong(0);
        assertThat(done).isEqualTo(2);
    }

    @Test
    void theDeadlineRefundsWhatTheFrozenEscrowHoldsAndAFailedCommandIsRecorded() throws Exception {
        Budgeted m = signedBudget("4.00");
        Escrow e = escrow(m.id());
        send(e.event(EscrowEvent.FUNDED, "4000000", "4000000", "0", "0", "0", "4000000", "active"));
        await("funded").atMost(Duration.ofSeconds(20)).until(() -> "4".equals(mandate(m.id()).getString("data.escrow.held")));
        partner.as().contentType(ContentType.JSON).body(Map.of("reason", "never started"))
                .post("/v1/mandates/" + m.id() + "/dispute").then().statusCode(200);
        JsonNode freeze = awaitCommand(e.hash(), EscrowCommand.FREEZE);
        pool.preparedQuery("update mandate_dispute set deadline_at = now() - interval '1 second' where mandate_id = $1")
                .execute(Tuple.of(m.id())).await().indefinitely();
        // the contract resolves a frozen escrow only: the refund waits for the freeze
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(6))
                .until(() -> "disputed".equals(mandate(m.id()).getString("data.state")));
        send(e.event(EscrowEvent.FROZEN, null, "4000000", "0", "0", "0", "4000000", "frozen"));
        await("refunded at the deadline").atMost(Duration.ofSeconds(20))
                .until(() -> "resolved".equals(mandate(m.id()).getString("data.state")));
        JsonNode refund = awaitCommand(e.hash(), EscrowCommand.RESOLVE);
        assertThat(refund.get("toCounterparty").asText()).isEqualTo("0");
        assertThat(refund.get("toProposer").asText()).isEqualTo("4000000");

        send(new EscrowEvent(new EventHeader(UUID.randomUUID(), EscrowEvent.COMMAND_FAILED, e.hash(), null, Instant.now(), 1),
                "base", CONTRACT, e.escrowId(), e.hash(), null, null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, refund.get("commandId").asText(), "NotFrozen()", null));
        await("failure recorded").atMost(Duration.ofSeconds(20)).until(() -> "failed".equals(pool.preparedQuery(
                "select status from mandate_escrow_command where command_id = $1")
                .execute(Tuple.of(UUID.fromString(refund.get("commandId").asText()))).await().indefinitely().iterator().next()
                .getString("status")));
        assertThat(freeze.get("commandId").asText()).isNotEqualTo(refund.get("commandId").asText());
    }

    // ---- helpers -------------------------------------------------------------------------------

    record Budgeted(String id) {
    }

    /** A mandate with a budget of {@code amount}, signed by both parties. */
    private static Budgeted signedBudget(String amount) {
        String proposer = "agent-p-" + System.nanoTime();
        String counterparty = "agent-c-" + System.nanoTime();
        String expiry = Api.inDays(30);
        Map<String, Object> body = Api.createBody(proposer, counterparty, expiry);
        Map<String, Object> budget = new LinkedHashMap<>();
        budget.put("amount", amount);
        budget.put("currency", "USDC");
        body.put("budget", budget);
        String id = partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(201)
                .extract().path("data.mandate_id");
        String plain = TestSigner.canonical(counterparty, expiry, id, proposer, "Write the quarterly report", Api.TERMS);
        String canonical = "{\"budget\":{\"amount\":\"" + amount + "\",\"currency\":\"USDC\",\"max_per_charge\":null,\"period\":null},"
                + plain.substring(1);
        String sig = TestSigner.hmac(canonical, partner.signingSecret());
        for (String signer : List.of("proposer", "counterparty")) {
            partner.as().contentType(ContentType.JSON).body(Map.of("signer", signer, "signature", sig))
                    .post("/v1/mandates/" + id + "/sign").then().statusCode(200);
        }
        return new Budgeted(id);
    }

    private static Escrow escrow(String mandateId) {
        String hash = mandate(mandateId).getString("data.proto_mandate_hash");
        return new Escrow(mandateId, hash, "0x" + UUID.randomUUID().toString().replace("-", "").repeat(2));
    }

    private static JsonPath mandate(String id) {
        return partner.as().get("/v1/mandates/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static List<String> types(String mandateId) {
        return MandateEvents.get().of(mandateId).stream().map(r -> r.event().type()).toList();
    }

    private static void send(EscrowEvent e) {
        TestKafka.send(TestKafka.record(e));
    }

    private static io.restassured.response.Response resolve(String id, String toCounterparty, String toProposer) {
        return Api.admin().contentType(ContentType.JSON).body(Map.of("to_counterparty", toCounterparty, "to_proposer", toProposer))
                .post("/admin/v1/disputes/" + id + "/resolve");
    }

    private static JsonNode awaitCommand(String hash, String type) throws Exception {
        await(type + " of " + hash).atMost(Duration.ofSeconds(20)).until(() -> commands.getRecords().stream()
                .anyMatch(r -> hash.equals(r.key()) && r.value().contains("\"" + type + "\"")));
        String value = commands.getRecords().stream().filter(r -> hash.equals(r.key()) && r.value().contains("\"" + type + "\""))
                .reduce((a, b) -> b).orElseThrow().value();
        return JSON.readTree(value);
    }
}
