package dev.agentpay.settlement;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Four real anvil chains with the real chain ids and USDC at the canonical addresses, plus the local
 * Solana chain (LiteSVM behind JSON-RPC, USDC at the canonical mint), wired into the watcher's chain
 * table (3 confirmations, 200 ms polls).
 */
public class ChainsTestResource implements QuarkusTestResourceLifecycleManager {

    /** anvil default account #5: the seller wallet on every EVM chain. */
    public static final String SELLER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
    public static final String SOLANA_SELLER = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    public static final int CONFIRMATIONS = 3;

    @Override
    public Map<String, String> start() {
        Map<String, String> props = new HashMap<>();
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            AnvilNode node = SharedServers.anvil("w-" + c.chain(), c.chainId());
            UsdcInstaller.install(new EvmRpc(node.rpcUrl()), c);
            String p = "chains." + c.chain() + ".";
            props.put(p + "rpc-url", node.rpcUrl());
            props.put(p + "payment-address", SELLER);
            props.put(p + "confirmations", Integer.toString(CONFIRMATIONS));
            props.put(p + "poll-interval", "PT0.2S");
        }
        props.put("chains.solana.rpc-url", SharedServers.solana().rpcUrl());
        props.put("chains.solana.payment-address", SOLANA_SELLER);
        props.put("chains.solana.poll-interval", "PT0.2S");
        props.put("settlement.solana.x402-fee-payers", SharedServers.solanaFeePayer().address());
        return props;
    }

    @Override
    public void stop() {
        // the shared chains stop with the JVM
    }
}
