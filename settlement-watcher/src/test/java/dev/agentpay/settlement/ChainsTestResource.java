package dev.agentpay.settlement;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.DepositFactoryInstaller;
import dev.agentpay.localstack.chain.EscrowInstaller;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Four real anvil chains with the real chain ids and USDC at the canonical addresses, plus the local
 * Solana chain (LiteSVM behind JSON-RPC, USDC at the canonical mint), wired into the watcher's chain
 * table (3 confirmations, 200 ms polls), with a deposit factory deployed on each EVM chain.
 */
public class ChainsTestResource implements QuarkusTestResourceLifecycleManager {

    /** anvil default account #5: the seller wallet on every EVM chain. */
    public static final String SELLER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
    public static final String SOLANA_SELLER = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    public static final int CONFIRMATIONS = 3;
    /** anvil default account #4. */
    public static final String SWEEPER_KEY = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";
    /** anvil default account #6: the escrow operator (as the local stack). */
    public static final String ESCROW_OPERATOR_KEY = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";
    /** The escrows' grace, seconds. */
    public static final long ESCROW_GRACE = 3600;

    @Override
    public Map<String, String> start() {
        Map<String, String> props = new HashMap<>();
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            AnvilNode node = SharedServers.anvil("w-" + c.chain(), c.chainId());
            EvmRpc rpc = new EvmRpc(node.rpcUrl());
            UsdcInstaller.install(rpc, c);
            String p = "chains." + c.chain() + ".";
            // the deposit factory as the local stack deploys it (anvil account #3), paying the seller
            props.put(p + "deposit-factory-address",
                    DepositFactoryInstaller.deploy(rpc, rpc.call("eth_accounts").get(3).asText(), SELLER));
            // the mandate escrow as the local stack deploys it (anvil account #3), operated by account #6
            props.put(p + "escrow-address", EscrowInstaller.deploy(rpc, rpc.call("eth_accounts").get(3).asText(), c.address(),
                    rpc.call("eth_accounts").get(6).asText(), ESCROW_GRACE));
            props.put(p + "rpc-url", node.rpcUrl());
            props.put(p + "payment-address", SELLER);
            props.put(p + "confirmations", Integer.toString(CONFIRMATIONS));
            props.put(p + "poll-interval", "PT0.2S");
        }
        // the sweeper (anvil account #4) pays sweep gas; sweeps are driven by the tests (the schedule waits an hour)
        props.put("settlement.sweep.private-key", SWEEPER_KEY);
        props.put("settlement.sweep.interval", "PT1H");
        props.put("settlement.escrow.operator-private-key", ESCROW_OPERATOR_KEY);
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
