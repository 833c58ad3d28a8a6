package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.anchor.contract.MandateAnchor;
import dev.agentpay.anchor.anchoring.service.ChainGuard;
import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.web3j.abi.EventEncoder;
import org.web3j.crypto.Hash;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;
import org.web3j.tx.ReadonlyTransactionManager;
import org.web3j.tx.gas.DefaultGasProvider;
import org.web3j.utils.Numeric;

/**
 * The contract: committed artifacts equal a fresh solc build of the source, the event is exactly the
 * specified one, only the signer may anchor, a batch emits one event per item; and the start-up guard
 * refuses a wrong chain, a missing contract or a contract of another signer.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class ContractTest {

    /** anvil's second and third dev accounts (unlocked). */
    static final String ACCOUNT_1 = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    static final String ACCOUNT_2 = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

    @Inject
    ChainGuard guard;

    @Test
    void committedArtifactsAreWhatSolcBuildsFromTheSource() throws Exception {
        Path out = Files.createTempDirectory("solc");
        String solcDir = System.getProperty("solc.package.dir", "../deploy/local/node/node_modules/solc");
        Process p = new ProcessBuilder("node", "src/main/solidity/compile.cjs", solcDir, "src/main/solidity/MandateAnchor.sol",
                out.toString()).redirectErrorStream(true).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(log).isZero();
        assertThat(log).contains("0.8.30");

        assertThat(Files.readString(out.resolve("MandateAnchor.bin")))
                .isEqualTo(AnchorChainTestResource.read("src/main/resources/contracts/MandateAnchor.bin"));
        assertThat(Files.readString(out.resolve("MandateAnchor.abi")))
                .isEqualTo(AnchorChainTestResource.read("src/main/resources/contracts/MandateAnchor.abi"));
        // the generated wrapper was generated from these artifacts
        assertThat(MandateAnchor.BINARY).isEqualTo(AnchorChainTestResource.committedBin());
    }

    @Test
    void theEventIsExactlyTheSpecifiedOne() {
        assertThat(EventEncoder.encode(MandateAnchor.MANDATEANCHORED_EVENT))
                .isEqualTo(Hash.sha3String("MandateAnchored(bytes32,string,uint256,address)"));
        assertThat(AnchorChainTestResource.read("src/main/resources/contracts/MandateAnchor.abi"))
                .contains("\"name\":\"MandateAnchored\"")
                .contains("{\"indexed\":true,\"internalType\":\"bytes32\",\"name\":\"mandateHash\",\"type\":\"bytes32\"}");
    }

    @Test
    void onlyTheSignerAnchorsAndABatchEmitsOneEventPerItem() throws Exception {
        onNewContract((rpc, web3j, address, c) -> {
            assertThat(c.isSigner(ACCOUNT_1).send()).isTrue();
            assertThat(c.isSigner(ACCOUNT_2).send()).isFalse();

            String h1 = KafkaIo.randomHash();
            String h2 = KafkaIo.randomHash();
            String h3 = KafkaIo.randomHash();
            String single = c.anchor(Numeric.hexStringToByteArray(h1), "signed_by_proposer").encodeFunctionCall();
            List<MandateAnchor.MandateAnchoredEventResponse> one = events(web3j, rpc.transact(ACCOUNT_1, address, single)
                    .get("transactionHash").asText());
            assertThat(one).hasSize(1);
            assertThat(Numeric.toHexString(one.get(0).mandateHash)).isEqualTo(h1);
            assertThat(one.get(0).state).isEqualTo("signed_by_proposer");
            assertThat(one.get(0).sender).isEqualToIgnoringCase(ACCOUNT_1);
            long ts = web3j.ethGetBlockByNumber(org.web3j.protocol.core.DefaultBlockParameterName.LATEST, false).send()
                    .getBlock().getTimestamp().longValueExact();
            assertThat(one.get(0).ts.longValueExact()).isEqualTo(ts);

            String batch = c.anchorBatch(List.of(Numeric.hexStringToByteArray(h2), Numeric.hexStringToByteArray(h3),
                    Numeric.hexStringToByteArray(h1)), List.of("signed_by_both", "disputed", "completed")).encodeFunctionCall();
            List<MandateAnchor.MandateAnchoredEventResponse> three = events(web3j, rpc.transact(ACCOUNT_1, address, batch)
                    .get("transactionHash").asText());
            assertThat(three).extracting(e -> Numeric.toHexString(e.mandateHash)).containsExactly(h2, h3, h1);
            assertThat(three).extracting(e -> e.state).containsExactly("signed_by_both", "disputed", "completed");

            // anyone else is refused, for both functions; mismatched arrays are refused
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_2, address, single)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_2, address, batch)).isInstanceOf(IllegalStateException.class);
            String mismatched = c.anchorBatch(List.of(Numeric.hexStringToByteArray(h2)), List.of("a", "b")).encodeFunctionCall();
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_1, address, mismatched)).isInstanceOf(IllegalStateException.class);
            // no signer, no contract
            assertThatThrownBy(() -> AnchorChainTestResource.deploy(rpc, ACCOUNT_2, "0x0000000000000000000000000000000000000000"))
                    .isInstanceOf(IllegalStateException.class);
        });
    }

    @Test
    void startUpGuardRefusesWrongChainMissingContractAndForeignSigner() {
        String contract = AnchorChainTestResource.contract();
        guard.verify(AnchorChainTestResource.CHAIN_ID, contract, AnvilNode.DEV_ADDRESS_0).await().atMost(Duration.ofSeconds(10));
        assertThatThrownBy(() -> guard.verify(8453, contract, AnvilNode.DEV_ADDRESS_0).await().atMost(Duration.ofSeconds(10)))
                .hasMessageContaining("refusing to start").hasMessageContaining("chain id 84532");
        assertThatThrownBy(() -> guard.verify(AnchorChainTestResource.CHAIN_ID, ACCOUNT_2, AnvilNode.DEV_ADDRESS_0)
                .await().atMost(Duration.ofSeconds(10))).hasMessageContaining("no contract");
        assertThatThrownBy(() -> guard.verify(AnchorChainTestResource.CHAIN_ID, contract, ACCOUNT_1)
                .await().atMost(Duration.ofSeconds(10))).hasMessageContaining("is not a signer");
    }

    @Test
    void signersAddAndRemoveEachOtherButNeverThemselvesOrTheSetEmpty() throws Exception {
        onNewContract((rpc, web3j, address, c) -> {
            String anchor = c.anchor(Numeric.hexStringToByteArray(KafkaIo.randomHash()), "completed").encodeFunctionCall();
            // a non-signer cannot add itself; the signer cannot remove itself
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_2, address, c.addSigner(ACCOUNT_2).encodeFunctionCall()))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_1, address, c.removeSigner(ACCOUNT_1).encodeFunctionCall()))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_1, address, c.addSigner("0x0000000000000000000000000000000000000000")
                    .encodeFunctionCall())).isInstanceOf(IllegalStateException.class);
            // the overlap: account 1 adds account 2, both anchor; account 2 removes account 1, which is refused from then on
            TransactionReceipt add = web3j.ethGetTransactionReceipt(rpc.transact(ACCOUNT_1, address, c.addSigner(ACCOUNT_2)
                    .encodeFunctionCall()).get("transactionHash").asText()).send().getTransactionReceipt().orElseThrow();
            assertThat(MandateAnchor.getSignerAddedEvents(add)).singleElement().satisfies(e -> {
                assertThat(e.signer).isEqualToIgnoringCase(ACCOUNT_2);
                assertThat(e.by).isEqualToIgnoringCase(ACCOUNT_1);
            });
            rpc.transact(ACCOUNT_1, address, anchor);
            rpc.transact(ACCOUNT_2, address, anchor);
            TransactionReceipt remove = web3j.ethGetTransactionReceipt(rpc.transact(ACCOUNT_2, address, c.removeSigner(ACCOUNT_1)
                    .encodeFunctionCall()).get("transactionHash").asText()).send().getTransactionReceipt().orElseThrow();
            assertThat(MandateAnchor.getSignerRemovedEvents(remove)).singleElement().satisfies(e -> {
                assertThat(e.signer).isEqualToIgnoringCase(ACCOUNT_1);
                assertThat(e.by).isEqualToIgnoringCase(ACCOUNT_2);
            });
            assertThat(c.isSigner(ACCOUNT_1).send()).isFalse();
            assertThatThrownBy(() -> rpc.transact(ACCOUNT_1, address, anchor)).isInstanceOf(IllegalStateException.class);
            rpc.transact(ACCOUNT_2, address, anchor);
        });
    }

    /** What a test checks on a contract of its own: its address, {@code c} to encode calls and read it. */
    @FunctionalInterface
    private interface ContractCheck {
        void run(EvmRpc rpc, Web3j web3j, String address, MandateAnchor c) throws Exception;
    }

    /** Deploys a new MandateAnchor (deployer account 2, signer account 1) on the shared anvil and runs {@code check} on it. */
    private static void onNewContract(ContractCheck check) throws Exception {
        AnvilNode node = SharedServers.anvil("anchor-contract", AnchorChainTestResource.CHAIN_ID);
        EvmRpc rpc = new EvmRpc(node.rpcUrl());
        Web3j web3j = Web3j.build(new HttpService(node.rpcUrl()));
        try {
            String address = AnchorChainTestResource.deploy(rpc, ACCOUNT_2, ACCOUNT_1);
            MandateAnchor c = MandateAnchor.load(address, web3j, new ReadonlyTransactionManager(web3j, ACCOUNT_1),
                    new DefaultGasProvider());
            check.run(rpc, web3j, address, c);
        } finally {
            web3j.shutdown();
        }
    }

    private static List<MandateAnchor.MandateAnchoredEventResponse> events(Web3j web3j, String txHash) throws Exception {
        TransactionReceipt r = web3j.ethGetTransactionReceipt(txHash).send().getTransactionReceipt().orElseThrow();
        return MandateAnchor.getMandateAnchoredEvents(r);
    }
}
