package dev.agentpay.discovery.verification.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code service_verify_mandate} on the proof of a mandate with three parties, built from viem's vector
 * (mandate-service {@code src/test/resources/eip712/parties-vectors.json}): web3j's generic EIP-712 encoder
 * hashes the {@code MultiPartyMandate} typed data (an array of structs) to viem's digest, every wallet signer is
 * recovered, the parties check passes; a reordered or relabelled party list fails, named.
 */
class MandateVerifierPartiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static ObjectNode proof() throws Exception {
        JsonNode v = JSON.readTree(Path.of("..", "mandate-service", "src", "test", "resources", "eip712",
                "parties-vectors.json").toFile()).get(0);
        ObjectNode typed = JSON.createObjectNode();
        typed.set("domain", v.get("domain"));
        ObjectNode types = typed.putObject("types");
        types.set("EIP712Domain", JSON.readTree("[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"version\",\"type\":\"string\"},"
                + "{\"name\":\"chainId\",\"type\":\"uint256\"},{\"name\":\"verifyingContract\",\"type\":\"address\"}]"));
        types.set("MultiPartyMandate", JSON.readTree("[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"parties\",\"type\":\"Party[]\"},"
                + "{\"name\":\"scope\",\"type\":\"string\"},{\"name\":\"termsHash\",\"type\":\"bytes32\"},"
                + "{\"name\":\"expiresAt\",\"type\":\"string\"},{\"name\":\"protoVersion\",\"type\":\"string\"}]"));
        types.set("Party", JSON.readTree("[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"role\",\"type\":\"string\"}]"));
        typed.put("primaryType", "MultiPartyMandate");
        typed.set("message", v.get("message"));
        ObjectNode proof = JSON.createObjectNode();
        proof.put("format", "agentpay-mandate-proof/1");
        proof.put("mandate_id", v.get("id").asText());
        proof.put("state", "signed_by_all");
        proof.put("hash_scheme", "eip712");
        proof.put("mandate_hash", v.get("digest").asText());
        proof.set("typed_data", typed);
        proof.put("terms", v.get("terms").asText());
        Map<String, String> sigs = new HashMap<>();
        v.get("signatures").forEach(s -> sigs.put(s.get("role").asText(), s.get("signature").asText()));
        ArrayNode signatures = proof.putArray("signatures");
        for (JsonNode p : v.get("parties")) {
            ObjectNode s = signatures.addObject();
            s.put("role", p.get("role").asText());
            s.put("party", p.get("id").asText());
            String sig = sigs.get(p.get("role").asText());
            s.put("scheme", sig == null ? "hmac" : "eip712");
            s.put("signature", sig == null ? "ab".repeat(32) : sig);
        }
        proof.putArray("anchors");
        return proof;
    }

    private static JsonNode verify(JsonNode proof) {
        MandateVerifier verifier = new MandateVerifier();
        verifier.mapper = JSON;
        return verifier.verify(proof).await().indefinitely();
    }

    private static Map<String, JsonNode> checks(JsonNode report) {
        Map<String, JsonNode> out = new HashMap<>();
        report.get("checks").forEach(c -> out.put(c.get("name").asText(), c.get("ok")));
        return out;
    }

    @Test
    void everyPartyIsCheckedAndTheSignedListMustMatchTheSignatures() throws Exception {
        Map<String, JsonNode> ok = checks(verify(proof()));
        assertThat(ok.get("mandate_hash").asBoolean()).isTrue();
        assertThat(ok.get("terms_hash").asBoolean()).isTrue();
        assertThat(ok.get("parties").asBoolean()).isTrue();
        assertThat(ok.get("signature:seller").asBoolean()).isTrue();
        assertThat(ok.get("signature:inspector").asBoolean()).isTrue();
        assertThat(ok.get("signature:buyer").isNull()).isTrue();

        ObjectNode relabelled = proof();
        ((ObjectNode) relabelled.get("signatures").get(2)).put("role", "auditor");
        assertThat(checks(verify(relabelled)).get("parties").asBoolean()).isFalse();

        ObjectNode reordered = proof();
        ArrayNode ps = (ArrayNode) reordered.at("/typed_data/message/parties");
        JsonNode first = ps.get(1).deepCopy();
        ps.set(1, ps.get(2).deepCopy());
        ps.set(2, first);
        Map<String, JsonNode> bad = checks(verify(reordered));
        assertThat(bad.get("mandate_hash").asBoolean()).isFalse();
        assertThat(bad.get("parties").asBoolean()).isFalse();
        assertThat(bad.get("signature:seller").asBoolean()).isFalse();
    }
}
