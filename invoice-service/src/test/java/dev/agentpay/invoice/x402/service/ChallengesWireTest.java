package dev.agentpay.invoice.x402.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.invoice.x402.domain.DecodedPayment;
import dev.agentpay.invoice.x402.domain.PaymentRequirement;
import org.junit.jupiter.api.Test;

/** The x402 wire forms of one payment requirement: v1's fields in v1's order, v2's subset. */
class ChallengesWireTest {

    private static PaymentRequirement requirement() {
        ObjectNode extra = Challenges.JSON.createObjectNode().put("name", "USD Coin").put("version", "2");
        ObjectNode output = Challenges.JSON.createObjectNode().put("type", "object");
        return new PaymentRequirement("exact", "base-sepolia", "10000", "https://api.example/api/x402/invoice",
                "Create a USDC invoice", "application/json", output, "0x00000000000000000000000000000000000000aa", 60,
                "0x00000000000000000000000000000000000000bb", extra, "eip155:84532", DecodedPayment.Rail.EVM);
    }

    @Test
    void v1HasTheElevenFieldsInOrderAndNothingElse() {
        assertThat(Challenges.v1(requirement()).toString()).isEqualTo("{\"scheme\":\"exact\",\"network\":\"base-sepolia\","
                + "\"maxAmountRequired\":\"10000\",\"resource\":\"https://api.example/api/x402/invoice\","
                + "\"description\":\"Create a USDC invoice\",\"mimeType\":\"application/json\","
                + "\"outputSchema\":{\"type\":\"object\"},\"payTo\":\"0x00000000000000000000000000000000000000aa\","
                + "\"maxTimeoutSeconds\":60,\"asset\":\"0x00000000000000000000000000000000000000bb\","
                + "\"extra\":{\"name\":\"USD Coin\",\"version\":\"2\"}}");
    }

    @Test
    void v1KeepsAnAbsentOutputSchemaAsNull() {
        PaymentRequirement r = requirement();
        PaymentRequirement noSchema = new PaymentRequirement(r.scheme(), r.network(), r.maxAmountRequired(), r.resource(),
                r.description(), r.mimeType(), null, r.payTo(), r.maxTimeoutSeconds(), r.asset(), r.extra(), r.v2Network(),
                r.rail());
        assertThat(Challenges.v1(noSchema).get("outputSchema").isNull()).isTrue();
    }

    @Test
    void v2UsesTheCaip2NetworkAndAmount() {
        assertThat(Challenges.v2(requirement()).toString()).isEqualTo("{\"scheme\":\"exact\","
                + "\"payTo\":\"0x00000000000000000000000000000000000000aa\",\"maxTimeoutSeconds\":60,"
                + "\"asset\":\"0x00000000000000000000000000000000000000bb\",\"extra\":{\"name\":\"USD Coin\",\"version\":\"2\"},"
                + "\"network\":\"eip155:84532\",\"amount\":\"10000\"}");
    }
}
