package dev.agentpay.discovery.verification.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.discovery.verification.service.MandateVerifier.Check;
import dev.agentpay.discovery.verification.service.MandateVerifier.SignerEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code anchor_signer:<state>} of {@code service_verify_mandate} (issue 31, signer rotation): an anchor's sender is
 * judged by the contract's SignerAdded/SignerRemoved logs replayed up to the anchor's log. Plain JUnit, no chain.
 */
class AnchorSignerHistoryTest {

    static final String OLD = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    static final String NEXT = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";
    static final String STRANGER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

    /** Deployed at block 10 with OLD; OLD adds NEXT at block 20 (log 3); NEXT removes OLD at block 30 (log 1). */
    static final List<SignerEvent> HISTORY = List.of(
            new SignerEvent(OLD, STRANGER, true, 10, 0),
            new SignerEvent(NEXT, OLD, true, 20, 3),
            new SignerEvent(OLD, NEXT, false, 30, 1));

    @Test
    void aSenderIsJudgedByTheHistoryUpToItsOwnLog() {
        assertThat(check(OLD, 15, 0).ok()).isTrue();
        assertThat(check(OLD, 30, 0).ok()).as("same block as the removal, before it").isTrue();
        assertThat(check(OLD, 30, 2)).satisfies(c -> {
            assertThat(c.ok()).as("same block, after the removal").isFalse();
            assertThat(c.detail()).contains("removed as a signer in block 30");
        });
        assertThat(check(OLD, 31, 0).ok()).isFalse();
        assertThat(check(NEXT, 20, 2).ok()).as("before it was added, in the same block").isFalse();
        assertThat(check(NEXT, 20, 4).ok()).isTrue();
        assertThat(check(NEXT, 25, 0).detail()).contains("added in block 20 by " + OLD);
        assertThat(check(OLD, 12, 0).detail()).contains("removed later in block 30");
        assertThat(check(STRANGER, 25, 0)).satisfies(c -> {
            assertThat(c.ok()).isFalse();
            assertThat(c.detail()).contains("never authorised");
        });
    }

    @Test
    void theHistoryIsReadFromGetLogsInChainOrder() throws Exception {
        JsonNode logs = new ObjectMapper().readTree("""
                [{"topics":["%s","0x000000000000000000000000a0ee7a142d267c1f36714e4a8f75612f20a79720",
                             "0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"],
                  "blockNumber":"0x14","logIndex":"0x3"},
                 {"topics":["%s","0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                             "0x00000000000000000000000090f79bf6eb2c4f870365e785982e1f101e93b906"],
                  "blockNumber":"0xa","logIndex":"0x0"},
                 {"topics":["%s","0x000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266",
                             "0x000000000000000000000000a0ee7a142d267c1f36714e4a8f75612f20a79720"],
                  "blockNumber":"0x1e","logIndex":"0x1"}]
                """.formatted(MandateVerifier.SIGNER_ADDED_TOPIC, MandateVerifier.SIGNER_ADDED_TOPIC, MandateVerifier.SIGNER_REMOVED_TOPIC));
        assertThat(MandateVerifier.signerEvents(logs)).containsExactlyElementsOf(HISTORY);
    }

    @Test
    void theSenderIsTheThirdWordOfTheLogData() {
        String data = "0x" + "0000000000000000000000000000000000000000000000000000000000000060"
                + "0000000000000000000000000000000000000000000000000000000065f2a1b0"
                + "000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
                + "0000000000000000000000000000000000000000000000000000000000000009"
                + "636f6d706c657465640000000000000000000000000000000000000000000000";
        assertThat(MandateVerifier.abiSender(data)).isEqualTo(OLD);
        assertThat(MandateVerifier.abiString(data)).isEqualTo("completed");
        assertThat(MandateVerifier.abiSender("0x")).isNull();
    }

    private static Check check(String who, long block, long logIndex) {
        return MandateVerifier.authorisedAt("anchor_signer:completed", HISTORY, who, block, logIndex);
    }
}
