package dev.agentpay.mandate.signing;

import static dev.agentpay.mandate.signing.Eip712Vectors.budget;
import static dev.agentpay.mandate.signing.Eip712Vectors.domain;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The parties form's EIP-712 struct with a budget (issue 28: {@code MultiPartyMandate} gains {@code Budget budget}) against
 * viem's hashTypedData / signTypedData ({@code src/test/js/generate-parties-budget-vectors.mjs}): same digest, every
 * wallet signature recovers its party, the published typed data is what viem signed, and the budget changes the digest.
 */
class PartiesBudgetVectorsTest {

    private static JsonNode vectors() throws Exception {
        return Eip712Vectors.read("parties-budget-vectors.json");
    }

    private static Eip712Parties.Message message(JsonNode v) {
        JsonNode m = v.get("message");
        List<MandateParty> parties = new ArrayList<>();
        m.get("parties").forEach(p -> parties.add(new MandateParty(p.get("id").asText(), p.get("role").asText())));
        return Eip712Parties.message(m.get("id").asText(), parties, m.get("scope").asText(), v.get("terms").asText(),
                m.get("expiresAt").asText(), m.get("protoVersion").asText());
    }

    @Test
    void digestsAndSignaturesMatchViem() throws Exception {
        JsonNode all = vectors();
        assertThat(all).hasSize(2);
        for (JsonNode v : all) {
            String digest = v.get("digest").asText();
            assertThat(Eip712Parties.digestHex(domain(v), message(v), budget(v))).isEqualTo(digest);
            // without the budget member it is another hash: a wallet never signs a budget it was not shown
            assertThat(Eip712Parties.digestHex(domain(v), message(v))).isNotEqualTo(digest);
            assertThat(v.get("signatures").size()).isGreaterThan(0);
            for (JsonNode s : v.get("signatures")) {
                assertThat(Eip712Mandate.recover(Eip712Parties.digest(domain(v), message(v), budget(v)),
                        s.get("signature").asText())).isEqualTo(s.get("address").asText());
            }
        }
        JsonNode v = all.get(0);
        Eip712Mandate.Budget b = budget(v);
        assertThat(Eip712Parties.digestHex(domain(v), message(v), new Eip712Mandate.Budget(b.amount(), b.currency(),
                b.maxPerCharge(), "P2D"))).isNotEqualTo(v.get("digest").asText());
        assertThat(Eip712Parties.digestHex(domain(v), message(v), null)).isEqualTo(Eip712Parties.digestHex(domain(v), message(v)));
    }

    @Test
    void publishedTypedDataIsWhatViemSigned() throws Exception {
        for (JsonNode v : vectors()) {
            Map<String, Object> td = Eip712Parties.typedData(domain(v), message(v), budget(v));
            JsonNode json = new ObjectMapper().valueToTree(td);
            assertThat(json.get("message")).isEqualTo(v.get("message"));
            assertThat(json.at("/types/MultiPartyMandate/6/type").asText()).isEqualTo("Budget");
            assertThat(json.at("/types/Budget")).hasSize(4);
            assertThat(json.at("/types/Party")).hasSize(2);
            // a generic EIP-712 encoder (what the verifier CLI and service_verify_mandate use) gives the same digest
            String hex = org.web3j.utils.Numeric.toHexString(new org.web3j.crypto.StructuredDataEncoder(
                    new ObjectMapper().writeValueAsString(td)).hashStructuredData());
            assertThat(hex).isEqualTo(v.get("digest").asText());
        }
    }
}
