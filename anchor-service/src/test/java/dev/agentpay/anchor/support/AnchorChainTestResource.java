package dev.agentpay.anchor.support;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The anchor network for the application under test: a real anvil with Base Sepolia's chain id mining
 * a block every second, the MandateAnchor contract deployed from the committed bytecode with anvil's
 * first dev account as signer, and a {@link TcpProxy} in front of the RPC so outage tests can cut it.
 */
public class AnchorChainTestResource implements QuarkusTestResourceLifecycleManager {

    public static final long CHAIN_ID = 84532;
    public static final String ANVIL = "anchor-1s";

    private static TcpProxy proxy;
    private static String contract;

    public static synchronized AnvilNode anvil() {
        return SharedServers.anvil(ANVIL, CHAIN_ID, 1);
    }

    public static synchronized TcpProxy proxy() {
        if (proxy == null) {
            proxy = new TcpProxy(anvil().port());
        }
        return proxy;
    }

    /** anvil's account #3 deploys, as the launcher does, so the signer's nonces belong to the service alone. */
    public static final String DEPLOYER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";

    /** The contract the application anchors to (deployed once per JVM). */
    public static synchronized String contract() {
        if (contract == null) {
            contract = deploy(new EvmRpc(anvil().rpcUrl()), DEPLOYER, AnvilNode.DEV_ADDRESS_0);
        }
        return contract;
    }

    /** Deploys the committed creation code with {@code signer} as the constructor argument. */
    public static String deploy(EvmRpc rpc, String from, String signer) {
        return rpc.deploy(from, committedBin() + EvmRpc.word(signer));
    }

    public static String committedBin() {
        return read("src/main/resources/contracts/MandateAnchor.bin").trim();
    }

    public static String read(String path) {
        try {
            return Files.readString(Path.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Map<String, String> start() {
        return Map.of(
                "anchor.rpc-url", proxy().url(),
                "anchor.chain-id", Long.toString(CHAIN_ID),
                "anchor.contract-address", contract(),
                "anchor.signer-key", AnvilNode.DEV_KEY_0,
                "anchor.explorer-url", "https://sepolia.basescan.org",
                "anchor.rebroadcast-after", "3s",
                "anchor.startup-timeout", "20s");
    }

    @Override
    public void stop() {
        // anvil and the proxy live as long as the JVM
    }
}
