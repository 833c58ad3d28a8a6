package dev.agentpay.discovery.verification.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.verification.service.MandateVerifier.Check;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The three-valued verdict of {@code service_verify_mandate} (issue 33 item 3): {@code verified} only when every
 * check ran and passed; {@code unverifiable} when nothing failed but something could not be checked; {@code failed}
 * when a check failed; {@code verified} is kept as exactly {@code verdict == "verified"}. Plain JUnit, no service.
 */
class MandateVerdictTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static MandateVerifier verifier() {
        MandateVerifier v = new MandateVerifier();
        v.mapper = JSON;
        return v;
    }

    @Test
    void theVerdictOfChecks() {
        assertThat(MandateVerifier.verdict(List.of(new Check("a", true, ""), new Check("b", true, "")))).isEqualTo("verified");
        assertThat(MandateVerifier.verdict(List.of(new Check("a", true, ""), new Check("b", null, "")))).isEqualTo("unverifiable");
        assertThat(MandateVerifier.verdict(List.of(new Check("a", null, ""), new Check("b", false, "")))).isEqualTo("failed");
        assertThat(MandateVerifier.verdict(List.of())).isEqualTo("unverifiable");
    }

    /** An HMAC mandate nobody signed and nothing anchored: every check that ran passed, yet nothing is verified. */
    @Test
    void anUnsignedUnanchoredMandateIsUnverifiable() throws Exception {
        ObjectNode report = verifier().verify(proof(null, null)).await().indefinitely();
        assertThat(report.path("verdict").asText()).as(report.toString()).isEqualTo("unverifiable");
        assertThat(report.path("verified").asBoolean()).isFalse();
        assertThat(report.path("failed")).isEmpty();
        assertThat(report.path("unverifiable").toString()).contains("signature:proposer", "signature:counterparty", "anchors");
    }

    @Test
    void hmacSignaturesAndPendingAnchorsStayUnverifiable() throws Exception {
        ObjectNode p = proof("a".repeat(64), "b".repeat(64));
        p.putArray("pending_anchors").addObject().put("to_state", "signed_by_both").put("anchor_status", "pending");
        ObjectNode report = verifier().verify(p).await().indefinitely();
        assertThat(report.path("verdict").asText()).as(report.toString()).isEqualTo("unverifiable");
        assertThat(report.path("unverifiable").toString()).contains("pending_anchors", "signature:proposer");
    }

    @Test
    void aTamperedProofFails() throws Exception {
        ObjectNode p = proof(null, null);
        p.put("mandate_hash", "0x" + "00".repeat(32));
        ObjectNode report = verifier().verify(p).await().indefinitely();
        assertThat(report.path("verdict").asText()).as(report.toString()).isEqualTo("failed");
        assertThat(report.path("verified").asBoolean()).isFalse();
        assertThat(report.path("failed").toString()).contains("mandate_hash");
    }

    /** A v0.1 (sha256-canonical) proof of an HMAC mandate, no anchors. */
    static ObjectNode proof(String proposerSig, String counterpartySig) throws Exception {
        String canonical = "{\"counterparty_agent_id\":\"b\",\"expires_at\":\"2030-01-01T00:00:00.000Z\",\"id\":\"mnd_1\","
                + "\"proposer_agent_id\":\"a\",\"scope\":\"s\",\"terms\":{\"x\":1}}";
        ObjectNode p = JSON.createObjectNode().put("format", "agentpay-mandate-proof/1").put("mandate_id", "mnd_1")
                .put("state", "proposed").put("hash_scheme", "sha256-canonical").put("canonical", canonical)
                .put("terms", "{\"x\":1}").put("mandate_hash", "0x" + HexFormat.of().formatHex(
                        MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8))));
        var sigs = p.putArray("signatures");
        sigs.addObject().put("role", "proposer").put("party", "a").put("scheme", "hmac").put("signature", proposerSig);
        sigs.addObject().put("role", "counterparty").put("party", "b").put("scheme", "hmac").put("signature", counterpartySig);
        p.putArray("anchors");
        return p;
    }
}
