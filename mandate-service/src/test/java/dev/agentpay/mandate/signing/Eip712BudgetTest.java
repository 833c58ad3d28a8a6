package dev.agentpay.mandate.signing;

import static dev.agentpay.mandate.signing.Eip712Vectors.budget;
import static dev.agentpay.mandate.signing.Eip712Vectors.domain;
import static dev.agentpay.mandate.signing.Eip712Vectors.message;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The EIP-712 struct of a mandate with a budget (issue 28) against viem's hashTypedData / signTypedData
 * ({@code src/test/js/generate-eip712-budget-vectors.mjs}), and the canonical {@code budget} member: present only with a
 * budget, first in the object, so a mandate without one signs exactly the bytes it signed before.
 */
class Eip712BudgetTest {

    private static JsonNode vectors() throws Exception {
        return Eip712Vectors.read("budget-vectors.json");
    }

    @Test
    void digestsAndSignaturesMatchViem() throws Exception {
        JsonNode all = vectors();
        assertThat(all).hasSize(2);
        for (JsonNode v : all) {
            assertThat(Eip712Mandate.digestHex(domain(v), message(v), budget(v))).isEqualTo(v.get("digest").asText());
            // the budget changes the digest: the v0.2 struct without it is another hash
            assertThat(Eip712Mandate.digestHex(domain(v), message(v))).isNotEqualTo(v.get("digest").asText());
            assertThat(Eip712Mandate.recover(Eip712Mandate.digest(domain(v), message(v), budget(v)),
                    v.get("proposer_signature").asText())).isEqualTo(v.get("proposer_address").asText());
        }
        // another amount is another digest
        JsonNode v = all.get(0);
        Eip712Mandate.Budget b = budget(v);
        assertThat(Eip712Mandate.digestHex(domain(v), message(v), new Eip712Mandate.Budget("1.01", b.currency(),
                b.maxPerCharge(), b.period()))).isNotEqualTo(v.get("digest").asText());
        // null budget: exactly the v0.2 digest
        assertThat(Eip712Mandate.digestHex(domain(v), message(v), null)).isEqualTo(Eip712Mandate.digestHex(domain(v), message(v)));
    }

    @Test
    void typedDataCarriesTheBudgetStruct() throws Exception {
        JsonNode v = vectors().get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> td = Eip712Mandate.typedData(domain(v), message(v), budget(v));
        JsonNode json = new ObjectMapper().valueToTree(td);
        assertThat(json.at("/types/Budget")).hasSize(4);
        assertThat(json.at("/types/Mandate/7/type").asText()).isEqualTo("Budget");
        assertThat(json.at("/message/budget")).isEqualTo(v.at("/message/budget"));
    }

    @Test
    void theCanonicalBudgetMemberIsInsertedFirstAndOnlyWhenPresent() {
        byte[] plain = "{\"counterparty_agent_id\":\"b\",\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(CanonicalMandate.withBudget(plain, null)).isSameAs(plain);
        assertThat(new String(CanonicalMandate.withBudget(plain, "{\"amount\":\"1\"}"), StandardCharsets.UTF_8))
                .isEqualTo("{\"budget\":{\"amount\":\"1\"},\"counterparty_agent_id\":\"b\",\"id\":\"x\"}");
    }
}
