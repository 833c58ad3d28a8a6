package dev.agentpay.mandate.signing;

import static dev.agentpay.mandate.signing.Eip712Vectors.domain;
import static dev.agentpay.mandate.signing.Eip712Vectors.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Sign;

/** Eip712Mandate against viem's hashTypedData / signTypedData ({@code src/test/js/generate-eip712-vectors.mjs}). */
class Eip712MandateTest {

    private static JsonNode vectors() throws Exception {
        return Eip712Vectors.read("vectors.json");
    }

    @Test
    void digestAndTermsHashMatchViem() throws Exception {
        JsonNode all = vectors();
        assertThat(all.size()).isGreaterThanOrEqualTo(3);
        for (JsonNode v : all) {
            assertThat(message(v).termsHash()).isEqualTo(v.at("/message/termsHash").asText());
            assertThat(Eip712Mandate.digestHex(domain(v), message(v))).isEqualTo(v.get("digest").asText());
        }
    }

    @Test
    void recoversTheAddressesThatSignedWithViem() throws Exception {
        for (JsonNode v : vectors()) {
            byte[] digest = Eip712Mandate.digest(domain(v), message(v));
            assertThat(Eip712Mandate.recover(digest, v.get("proposer_signature").asText()))
                    .isEqualTo(v.get("proposer_address").asText());
            assertThat(Eip712Mandate.recover(digest, v.get("counterparty_signature").asText()))
                    .isEqualTo(v.get("counterparty_address").asText());
        }
    }

    @Test
    void anotherDomainOrMessageRecoversAnotherAddress() throws Exception {
        JsonNode v = vectors().get(0);
        String sig = v.get("proposer_signature").asText();
        Eip712Mandate.Domain otherChain = new Eip712Mandate.Domain(1, v.at("/domain/verifyingContract").asText());
        Eip712Mandate.Message m = message(v);
        Eip712Mandate.Message otherScope = new Eip712Mandate.Message(m.id(), m.proposer(), m.counterparty(),
                m.scope() + ".", m.termsHash(), m.expiresAt(), m.protoVersion());
        assertThat(Eip712Mandate.recover(Eip712Mandate.digest(otherChain, m), sig)).isNotEqualTo(v.get("proposer_address").asText());
        assertThat(Eip712Mandate.recover(Eip712Mandate.digest(domain(v), otherScope), sig))
                .isNotEqualTo(v.get("proposer_address").asText());
    }

    @Test
    void refusesMalformedAndMalleableSignatures() throws Exception {
        JsonNode v = vectors().get(0);
        byte[] digest = Eip712Mandate.digest(domain(v), message(v));
        String sig = v.get("proposer_signature").asText();
        assertThatThrownBy(() -> Eip712Mandate.recover(digest, sig.substring(2))).hasMessageContaining("130 hex digits");
        assertThatThrownBy(() -> Eip712Mandate.recover(digest, sig + "00")).hasMessageContaining("130 hex digits");
        assertThatThrownBy(() -> Eip712Mandate.recover(digest, sig.substring(0, 130) + "1d")).hasMessageContaining("v must be");
        // the same signature with s' = n - s and v flipped recovers the same key: refused (EIP-2)
        byte[] raw = HexFormat.of().parseHex(sig.substring(2));
        BigInteger s = new BigInteger(1, java.util.Arrays.copyOfRange(raw, 32, 64));
        byte[] high = Sign.CURVE_PARAMS.getN().subtract(s).toByteArray();
        byte[] twin = raw.clone();
        java.util.Arrays.fill(twin, 32, 64, (byte) 0);
        System.arraycopy(high, Math.max(0, high.length - 32), twin, 64 - Math.min(32, high.length), Math.min(32, high.length));
        twin[64] = (byte) (raw[64] == 27 ? 28 : 27);
        assertThatThrownBy(() -> Eip712Mandate.recover(digest, "0x" + HexFormat.of().formatHex(twin)))
                .hasMessageContaining("EIP-2");
    }

    @Test
    void walletPartiesAreCaip10WithAValidChecksum() {
        assertThat(WalletParty.parse("agent-7")).isNull();
        assertThat(WalletParty.parse("eip155:84532:0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"))
                .isEqualTo(new WalletParty(84532, "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"));
        assertThat(WalletParty.parse("eip155:1:0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc").address())
                .isEqualTo("0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc");
        assertThatThrownBy(() -> WalletParty.parse("eip155:84532:0x9965507D1a55bcC2695C58ba16FB37d819B0A4DC"))
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> WalletParty.parse("eip155:84532:0x1234")).hasMessageContaining("CAIP-10");
        assertThatThrownBy(() -> WalletParty.parse("eip155:0:0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"))
                .hasMessageContaining("CAIP-10");
        assertThatThrownBy(() -> WalletParty.parse("eip155:1:0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc\n"))
                .hasMessageContaining("CAIP-10");
    }
}
