package dev.agentpay.mandate.signing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;

/**
 * Reads the committed EIP-712 vectors written by viem ({@code src/test/js/generate-*-vectors.mjs}, in
 * {@code src/test/resources/eip712/}): a vector's domain, two-party message and budget as {@link Eip712Mandate} takes them.
 */
final class Eip712Vectors {

    private Eip712Vectors() {
    }

    /** The vectors of {@code /eip712/<resource>}. */
    static JsonNode read(String resource) throws Exception {
        try (InputStream in = Eip712Vectors.class.getResourceAsStream("/eip712/" + resource)) {
            return new ObjectMapper().readTree(in);
        }
    }

    static Eip712Mandate.Domain domain(JsonNode v) {
        return new Eip712Mandate.Domain(v.at("/domain/chainId").asLong(), v.at("/domain/verifyingContract").asText());
    }

    /** The two-party (v0.2) message. */
    static Eip712Mandate.Message message(JsonNode v) {
        JsonNode m = v.get("message");
        return Eip712Mandate.message(m.get("id").asText(), m.get("proposer").asText(), m.get("counterparty").asText(),
                m.get("scope").asText(), v.get("terms").asText(), m.get("expiresAt").asText(), m.get("protoVersion").asText());
    }

    /** The message's budget; viem's empty {@code maxPerCharge} or {@code period} is none. */
    static Eip712Mandate.Budget budget(JsonNode v) {
        JsonNode b = v.at("/message/budget");
        String max = b.get("maxPerCharge").asText();
        String period = b.get("period").asText();
        return Eip712Mandate.Budget.of(b.get("amount").asText(), b.get("currency").asText(), max.isEmpty() ? null : max,
                period.isEmpty() ? null : period);
    }
}
