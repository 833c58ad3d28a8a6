package dev.agentpay.commons.chains;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The start-up warm-up really runs the curve code web3j signs and recovers with (a key's public point, its address). */
class CryptoWarmUpTest {

    @Test
    void theWarmUpDerivesTheChecksummedAddressOfPrivateKeyOne() {
        assertThat(CryptoWarmUp.warmUp()).isEqualTo("0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf");
    }
}
