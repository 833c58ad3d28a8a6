package dev.agentpay.localstack.chain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.testing.SharedServers;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The launcher's escrow deployment on a real anvil: one MandateEscrow per chain holding the chain's USDC for the
 * operator, deployed once and found again on every start (its address remembered beside the chain state), and
 * deployed anew only when the remembered address has no code (a chain started fresh).
 */
class EscrowInstallerTest {

    @Test
    void deployedOnceRememberedAndFoundAgainOnEveryStart() throws Exception {
        AnvilNode node = SharedServers.anvil("escrow-install", 42161);
        EvmRpc rpc = new EvmRpc(node.rpcUrl());
        var accounts = rpc.call("eth_accounts");
        String deployer = accounts.get(3).asText();
        String operator = accounts.get(6).asText();
        String usdc = UsdcInstaller.ARBITRUM.address();
        Path remembered = Files.createTempDirectory("escrow").resolve("data/arbitrum-escrow.address");

        String first = EscrowInstaller.ensure(rpc, deployer, usdc, operator, EscrowInstaller.LOCAL_GRACE_SECONDS, remembered);
        assertThat(rpc.getCode(first).length()).isGreaterThan(2);
        assertThat(Files.readString(remembered)).isEqualTo(first);
        // token(), operator(), grace() as deployed
        assertThat(rpc.ethCall(first, "0xfc0c546a")).endsWithIgnoringCase(usdc.substring(2));
        assertThat(rpc.ethCall(first, "0x570ca735")).endsWithIgnoringCase(operator.substring(2));
        assertThat(Long.decode(rpc.ethCall(first, org.web3j.crypto.Hash.sha3String("grace()").substring(0, 10)).replaceFirst("^0x0*", "0x"))).isEqualTo(EscrowInstaller.LOCAL_GRACE_SECONDS);

        // a restart finds it again: same address, nothing deployed
        long nonce = Long.decode(rpc.call("eth_getTransactionCount", deployer, "latest").asText());
        assertThat(EscrowInstaller.ensure(rpc, deployer, usdc, operator, EscrowInstaller.LOCAL_GRACE_SECONDS, remembered)).isEqualTo(first);
        assertThat(Long.decode(rpc.call("eth_getTransactionCount", deployer, "latest").asText())).isEqualTo(nonce);

        // a remembered address without code (the chain was started fresh): deployed anew and remembered
        Files.writeString(remembered, "0x00000000000000000000000000000000000e5c70");
        String again = EscrowInstaller.ensure(rpc, deployer, usdc, operator, EscrowInstaller.LOCAL_GRACE_SECONDS, remembered);
        assertThat(again).isNotEqualTo(first);
        assertThat(rpc.getCode(again).length()).isGreaterThan(2);
        assertThat(Files.readString(remembered)).isEqualTo(again);
    }
}
