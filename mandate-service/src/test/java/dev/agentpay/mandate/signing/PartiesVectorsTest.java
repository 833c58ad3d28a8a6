package dev.agentpay.mandate.signing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The parties form's canonical bytes ({@link CanonicalParties}) and EIP-712 typed data ({@link Eip712Parties})
 * against what JavaScript and viem compute ({@code src/test/js/generate-parties-vectors.mjs}, output committed
 * as {@code src/test/resources/eip712/parties-vectors.json}): the same bytes, SHA-256, HMACs (plain and
 * role-bound), the same EIP-712 digest, and every wallet signature made by viem recovers its party's address.
 */
class PartiesVectorsTest {

    private static JsonNode vectors() throws Exception {
        return Eip712Vectors.read("parties-vectors.json");
    }

    private static List<MandateParty> parties(JsonNode v) {
        List<MandateParty> out = new ArrayList<>();
        v.get("parties").forEach(p -> out.add(new MandateParty(p.get("id").asText(), p.get("role").asText())));
        return out;
    }

    private static Eip712Parties.Message message(JsonNode v) {
        return Eip712Parties.message(v.get("id").asText(), parties(v), v.get("scope").asText(),
                CanonicalMandate.canonicalTerms(v.get("terms_as_sent").asText()), v.get("expires_at").asText(),
                v.at("/message/protoVersion").asText());
    }

    @Test
    void canonicalBytesHashAndHmacsMatchJavaScript() throws Exception {
        JsonNode all = vectors();
        assertThat(all.size()).isGreaterThanOrEqualTo(4);
        for (JsonNode v : all) {
            String terms = CanonicalMandate.canonicalTerms(v.get("terms_as_sent").asText());
            assertThat(terms).isEqualTo(v.get("terms").asText());
            Instant expires = JsDate.parse(v.get("expires_at").asText());
            byte[] bytes = CanonicalParties.bytes(expires, v.get("id").asText(), parties(v), v.get("scope").asText(), terms);
            assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(v.get("canonical").asText());
            assertThat(CanonicalMandate.mandateHash(bytes)).isEqualTo(v.get("sha256").asText());
            String secret = v.get("hmac_secret").asText();
            assertThat(CanonicalMandate.hmacHex(bytes, secret)).isEqualTo(v.get("hmac").asText());
            assertThat(CanonicalMandate.verify(bytes, secret, v.get("hmac").asText())).isTrue();
            for (MandateParty p : parties(v)) {
                JsonNode role = v.get("hmac_role").get(p.role());
                byte[] roleBytes = CanonicalParties.bytes(expires, v.get("id").asText(), parties(v), v.get("scope").asText(),
                        p.role(), terms);
                assertThat(new String(roleBytes, StandardCharsets.UTF_8)).isEqualTo(role.get("canonical").asText());
                assertThat(CanonicalMandate.hmacHex(roleBytes, secret)).isEqualTo(role.get("hmac").asText());
            }
        }
    }

    @Test
    void eip712DigestMatchesViemAndRecoversEveryWallet() throws Exception {
        int wallets = 0;
        for (JsonNode v : vectors()) {
            if (!v.has("digest")) {
                continue;
            }
            Eip712Mandate.Domain domain = new Eip712Mandate.Domain(v.at("/domain/chainId").asLong(),
                    v.at("/domain/verifyingContract").asText());
            Eip712Parties.Message m = message(v);
            assertThat(m.termsHash()).isEqualTo(v.at("/message/termsHash").asText());
            assertThat(Eip712Parties.digestHex(domain, m)).isEqualTo(v.get("digest").asText());
            byte[] digest = Eip712Parties.digest(domain, m);
            for (JsonNode s : v.get("signatures")) {
                assertThat(Eip712Mandate.recover(digest, s.get("signature").asText())).isEqualTo(s.get("address").asText());
                wallets++;
            }
            // the typed data the proof publishes is what viem signed: same message, same types
            ObjectMapper json = new ObjectMapper();
            JsonNode typed = json.valueToTree(Eip712Parties.typedData(domain, m));
            assertThat(typed.get("message")).isEqualTo(v.get("message"));
            assertThat(typed.get("primaryType").asText()).isEqualTo("MultiPartyMandate");
            // another order of the same parties is another mandate
            List<MandateParty> swapped = new ArrayList<>(parties(v));
            java.util.Collections.swap(swapped, 0, 1);
            Eip712Parties.Message other = new Eip712Parties.Message(m.id(), swapped, m.scope(), m.termsHash(), m.expiresAt(),
                    m.protoVersion());
            assertThat(Eip712Parties.digestHex(domain, other)).isNotEqualTo(v.get("digest").asText());
        }
        assertThat(wallets).isGreaterThanOrEqualTo(8);
    }
}
