package dev.agentpay.localstack.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points the application at the JVM's shared local Solana chain (LiteSVM behind JSON-RPC). */
public class SolanaTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("chains.solana.rpc-url", SharedServers.solana().rpcUrl());
    }

    @Override
    public void stop() {
        // the chain outlives one application; it stops with the JVM
    }
}
