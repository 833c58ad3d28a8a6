package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.DepositFactoryInstaller;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.SharedServers;
import dev.agentpay.settlement.sweep.client.SweepChainClient;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * The deposit contracts: committed artifacts equal a fresh solc build of the source; on a real anvil
 * chain, money sent to a counterfactual address is swept (by anyone) to the treasury and only there,
 * a forwarder obeys its factory alone, and sweeping twice moves nothing the second time.
 */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class DepositFactoryTest {

    static final String TREASURY = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

    @Test
    void committedArtifactsAreWhatSolcBuildsFromTheSource() throws Exception {
        Path out = Files.createTempDirectory("solc");
        String solcDir = System.getProperty("solc.package.dir", "../deploy/local/node/node_modules/solc");
        Process p = new ProcessBuilder("node", "../anchor-service/src/main/solidity/compile.cjs", solcDir,
                "src/main/solidity/DepositFactory.sol", out.toString(), "DepositFactory", "DepositForwarder").redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(log).isZero();
        for (String f : List.of("DepositFactory.bin", "DepositFactory.abi", "DepositForwarder.bin", "DepositForwarder.abi")) {
            assertThat(Files.readString(out.resolve(f))).as(f)
                    .isEqualTo(Files.readString(Path.of("src/main/resources/contracts").resolve(f)));
        }
    }

    @Test
    void aCounterfactualAddressIsSweptByAnyoneToTheTreasuryOnlyAndOnce() {
        AnvilNode node = SharedServers.anvil("w-arbitrum", 42161);
        EvmRpc rpc = new EvmRpc(node.rpcUrl());
        UsdcInstaller.install(rpc, UsdcInstaller.canonical("arbitrum").orElseThrow());
        String usdc = UsdcInstaller.canonical("arbitrum").orElseThrow().address();
        var accounts = rpc.call("eth_accounts");
        String factory = DepositFactoryInstaller.deploy(rpc, accounts.get(3).asText(), TREASURY);
        String stranger = accounts.get(7).asText();

        byte[] salt = dev.agentpay.commons.chains.Create2.invoiceSalt(UUID.randomUUID());
        String word = rpc.ethCall(factory, Hash.sha3String("depositAddress(bytes32)").substring(0, 10) + Numeric.toHexStringNoPrefix(salt));
        String deposit = "0x" + word.substring(word.length() - 40);
        assertThat(rpc.getCode(deposit)).isEqualTo("0x"); // nothing deployed to receive
        UsdcInstaller.mint(rpc, usdc, deposit, BigInteger.valueOf(4_200_000));
        BigInteger before = UsdcInstaller.balanceOf(rpc, usdc, TREASURY);

        String sweep = FunctionEncoder.encode(new Function("sweep", List.of(new Address(usdc),
                new DynamicArray<>(Bytes32.class, List.of(new Bytes32(salt)))), List.of()));
        var receipt = rpc.transact(stranger, factory, sweep); // anyone may pay the gas
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, TREASURY).subtract(before)).isEqualTo(BigInteger.valueOf(4_200_000));
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, deposit)).isZero();
        assertThat(rpc.getCode(deposit).length()).isGreaterThan(2);
        assertThat(receipt.get("logs").toString()).containsIgnoringCase(SweepChainClient.SWEPT_TOPIC.substring(2));

        // sweeping again moves nothing; a forwarder obeys only its factory
        rpc.transact(stranger, factory, sweep);
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, TREASURY).subtract(before)).isEqualTo(BigInteger.valueOf(4_200_000));
        UsdcInstaller.mint(rpc, usdc, deposit, BigInteger.ONE);
        String flush = FunctionEncoder.encode(new Function("flush", List.of(new Address(usdc), new Address(stranger)), List.of()));
        assertThatThrownBy(() -> rpc.transact(stranger, deposit, flush)).hasMessageContaining("revert");
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, deposit)).isEqualTo(BigInteger.ONE);
    }
}
