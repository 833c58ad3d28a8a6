package dev.agentpay.mandate.signing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link WalletParty#lookAlikeProblem}: the rule behind {@code @PartyId} (issue 33 item 2), without a service. */
class WalletLookAlikeTest {

    static final String TAIL = "8453:0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

    @Test
    void idsThatReadAsAWalletMustBeValidCaip10AsWritten() {
        for (String s : new String[] {"EIP155:" + TAIL, " eip155:" + TAIL, "\teip155:" + TAIL, "eip155:" + TAIL + "\u3000",
                "\uff45\uff49\uff50155:" + TAIL, "eip155\uff1a" + TAIL, "eip\uff11\uff15\uff15:" + TAIL, "eip155:" + TAIL.substring(0, 10),
                "eip155:", "eip155:0:" + TAIL.substring(5), "eip155:8453:0x3C44CdDdB6a900fa2B585dd299e03d12FA4293BC"}) {
            assertThat(WalletParty.lookAlikeProblem(s)).as("%s", s).isNotNull();
        }
    }

    @Test
    void walletsAndOrdinaryNamesPass() {
        for (String s : new String[] {"eip155:" + TAIL, "eip155:8453:0x3C44CDDDB6A900FA2B585DD299E03D12FA4293BC",
                "eip155:8453:0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "agent:buyer-1", "agent eip155:" + TAIL, "eip-155:x",
                "", "Ren\u00e9e"}) {
            assertThat(WalletParty.lookAlikeProblem(s)).as("%s", s).isNull();
        }
        assertThat(WalletParty.lookAlikeProblem(null)).isNull();
    }

    /** Issue 33 item 5: v = 0/1 is stored as 27/28; anything else only lowercased. */
    @Test
    void signaturesAreNormalisedToV27Or28() {
        String rs = "0x" + "AB".repeat(64);
        assertThat(Eip712Mandate.normalized(rs + "00")).isEqualTo(rs.toLowerCase() + "1b");
        assertThat(Eip712Mandate.normalized(rs + "01")).isEqualTo(rs.toLowerCase() + "1c");
        assertThat(Eip712Mandate.normalized(rs + "1C")).isEqualTo(rs.toLowerCase() + "1c");
        assertThat(Eip712Mandate.normalized(rs + "02")).isEqualTo(rs.toLowerCase() + "02");
        assertThat(Eip712Mandate.normalized("0x1234")).isEqualTo("0x1234");
    }
}
