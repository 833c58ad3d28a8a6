package dev.agentpay.invoice.deposit.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.DepositFactoryInstaller;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.testing.SharedServers;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * The Java derivation of an invoice's deposit address against the factory contract's own computation
 * on a real anvil chain (the contract as committed in settlement-watcher, deployed as the local stack does).
 */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class DepositAddressTest {

    /** anvil dev account #5 as treasury (any address will do). */
    static final String TREASURY = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

    @Test
    void javaComputesTheSameAddressAsTheFactoryOnChain() {
        AnvilNode node = SharedServers.anvil("base", 8453);
        EvmRpc rpc = new EvmRpc(node.rpcUrl());
        String deployer = rpc.call("eth_accounts").get(3).asText();
        String factory = DepositFactoryInstaller.deploy(rpc, deployer, TREASURY);

        // forwarderInitCodeHash() = 0x2a1c... selector: keccak256("forwarderInitCodeHash()")[0..4]
        String hash = rpc.ethCall(factory, Hash.sha3String("forwarderInitCodeHash()").substring(0, 10));
        assertThat(hash).isEqualToIgnoringCase(DepositAddress.FORWARDER_INIT_CODE_HASH);

        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            UUID id = UUID.randomUUID();
            String salt = Numeric.toHexStringNoPrefix(dev.agentpay.commons.chains.Create2.invoiceSalt(id));
            String word = rpc.ethCall(factory, Hash.sha3String("depositAddress(bytes32)").substring(0, 10) + salt);
            String onChain = "0x" + word.substring(word.length() - 40);
            String java = DepositAddress.of(factory, id);
            assertThat(java).isEqualToIgnoringCase(onChain);
            assertThat(seen.add(java.toLowerCase())).isTrue();
        }
        assertThat(DepositFactoryInstaller.treasury(rpc, factory)).isEqualToIgnoringCase(TREASURY);
    }

    @Test
    void theSaltIsKeccakOfTheCanonicalIdAndTheAddressIsChecksummedAndFactoryBound() {
        UUID id = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertThat(Numeric.toHexString(dev.agentpay.commons.chains.Create2.invoiceSalt(id))).isEqualTo(Hash.sha3String("123e4567-e89b-12d3-a456-426614174000"));
        String a = DepositAddress.of("0x00000000000000000000000000000000Fac70001", id);
        String b = DepositAddress.of("0x00000000000000000000000000000000Fac70002", id);
        assertThat(a).matches("0x[0-9a-fA-F]{40}").isNotEqualToIgnoringCase(b);
        assertThat(a).isNotEqualTo(a.toLowerCase()); // EIP-55 mixed case
        assertThatThrownBy(() -> DepositAddress.of("0x1234", id)).isInstanceOf(IllegalArgumentException.class);
    }
}
