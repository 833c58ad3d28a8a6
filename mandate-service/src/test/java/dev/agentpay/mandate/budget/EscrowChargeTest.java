package dev.agentpay.mandate.budget;

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
import dev.agentpay.mandate.escrow.domain.EscrowRefs;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;

/**
 * A charge under a mandate funded in escrow is paid from escrow (issue 30): its link transaction sends
 * {@code escrow.release} (ref = keccak-256 of the charge id) once, whatever the retries; without an active escrow that
 * holds the amount the charge is an invoice to pay as before.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(InvoiceServiceStub.class)
class EscrowChargeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static TestPartner partner;
    static ConsumerTask<String, String> commands;

    @BeforeEach
    void setUp() {
        if (partner == null) {
            partner = Api.newPartner("Escrow charges");
            commands = TestKafka.collect(Topics.ESCROW_COMMANDS);
        }
    }

    @Test
    void aChargeUnderAFundedMandateIsReleasedFromEscrowOnce() throws Exception {
        BudgetChargeTest.Budgeted m = BudgetChargeTest.signedBudget(partner, "10.00", null, null);
        String hash = partner.as().get("/v1/mandates/" + m.id()).then().extract().path("data.proto_mandate_hash");
        String escrowId = "0x" + "71".repeat(32);
        TestKafka.send(TestKafka.record(new EscrowEvent(new EventHeader(UUID.randomUUID(), EscrowEvent.FUNDED, hash, null,
                Instant.now(), 1), "base", "0x" + "e5".repeat(20), escrowId, hash, "0x" + "ab".repeat(32), 0, 10L, null, "3000000",
                null, null, null, "0x" + "f0".repeat(20), "0x" + "c0".repeat(20), null, null, 2_000_000_000L,
                new EscrowEvent.Totals("3000000", "0", "0", "0", "3000000"), "active", null, null, null)));
        await("funded").atMost(Duration.ofSeconds(20)).until(() -> "3".equals(partner.as().get("/v1/mandates/" + m.id())
                .then().extract().path("data.escrow.held")));

        Response first = BudgetChargeTest.charge(m, "2.5", "base", "paid from escrow", "esc-" + m.id());
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(201);
        assertThat(first.<String>path("data.paid_from")).isEqualTo("escrow");
        String chargeId = first.path("data.charge_id");
        Response replay = BudgetChargeTest.charge(m, "2.5", "base", "paid from escrow", "esc-" + m.id());
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");

        await("release sent").atMost(Duration.ofSeconds(20)).until(() -> releases(hash).size() == 1);
        JsonNode release = releases(hash).get(0);
        assertThat(release.get("chargeId").asText()).isEqualTo(chargeId);
        assertThat(release.get("amount").asText()).isEqualTo("2500000");
        assertThat(release.get("escrowId").asText()).isEqualTo(escrowId);
        assertThat(release.get("chain").asText()).isEqualTo("base");
        assertThat(release.get("ref").asText()).isEqualTo(Hash.sha3String(chargeId)).isEqualTo(EscrowRefs.ref(chargeId));

        // more than the escrow still holds (0.5 of 3 after the first release is not known yet: it holds 3 until the chain
        // says otherwise, so 1 fits and 5 does not): the second is an invoice to pay by hand
        Response big = BudgetChargeTest.charge(m, "5", "base", "more than held", null);
        assertThat(big.statusCode()).as(big.asString()).isEqualTo(201);
        assertThat(big.<String>path("data.paid_from")).isEqualTo("invoice");
        // a charge on a mandate without escrow is an invoice as before
        BudgetChargeTest.Budgeted plain = BudgetChargeTest.signedBudget(partner, "1.00", null, null);
        assertThat(BudgetChargeTest.charge(plain, "0.5", "base", null, null).<String>path("data.paid_from")).isEqualTo("invoice");
        // the marker: one more release on the funded mandate; by its arrival, nothing else was sent for the others
        Response small = BudgetChargeTest.charge(m, "0.25", "base", null, null);
        assertThat(small.<String>path("data.paid_from")).isEqualTo("escrow");
        await("second release").atMost(Duration.ofSeconds(20)).until(() -> releases(hash).size() == 2);
        assertThat(releases(hash)).extracting(r -> r.get("chargeId").asText())
                .containsExactly(chargeId, small.<String>path("data.charge_id"));
    }

    private static List<JsonNode> releases(String hash) {
        return commands.getRecords().stream().filter(r -> hash.equals(r.key()) && r.value().contains(EscrowCommand.RELEASE))
                .map(r -> {
                    try {
                        return JSON.readTree(r.value());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).toList();
    }
}
