package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;

/** The escrow operator key the launcher gives settlement-watcher is anvil's account #6, the escrows' operator. */
class EscrowOperatorKeyTest {

    @Test
    void theOperatorKeyIsAnvilAccountSix() {
        assertThat(Credentials.create(ChainSetup.ESCROW_OPERATOR_KEY).getAddress())
                .isEqualToIgnoringCase("0x976EA74026E726554dB657fA54763abd0C3a0aa9");
    }
}
