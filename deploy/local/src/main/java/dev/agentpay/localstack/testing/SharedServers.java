package dev.agentpay.localstack.testing;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.KafkaServer;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.PostgresServer;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.solana.SolanaKeys;
import dev.agentpay.localstack.solana.SolanaNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Real servers for tests, started once per test JVM on free ports and stopped when it exits. Test
 * resources and plain JUnit tests share them, so a module's tests pay each start-up once.
 */
public final class SharedServers {

    private static PostgresServer postgres;
    private static KafkaServer kafka;
    private static final Map<String, AnvilNode> ANVILS = new ConcurrentHashMap<>();
    private static SolanaNode solana;
    /** Holds SOL and 1,000,000 USDC on the shared Solana chain. */
    private static final SolanaKeys.Keypair SOLANA_PAYER = SolanaKeys.generate();
    /** Holds SOL on the shared Solana chain (the x402 facilitator's fee payer in tests). */
    private static final SolanaKeys.Keypair SOLANA_FEE_PAYER = SolanaKeys.generate();
    /** Slots until finalized on the test chain: 1.6 s, so tests at {@code finalized} stay quick. */
    public static final int SOLANA_TEST_FINALITY_LAG = 4;

    private SharedServers() {
    }

    public static synchronized PostgresServer postgres() {
        if (postgres == null) {
            Path dir = RepoPaths.testScratch("pg");
            postgres = PostgresServer.start(dir.resolve("data"), Ports.free()); // stopped at JVM exit by PostgresServer itself
        }
        return postgres;
    }

    public static synchronized KafkaServer kafka() {
        if (kafka == null) {
            Path dir = RepoPaths.testScratch("kafka");
            kafka = KafkaServer.start(dir, Ports.free(), dir.resolve("kafka.log"));
            kafka.ensureTopics();
        }
        return kafka;
    }

    /** An instant-mining anvil with this chain id, shared by name within the JVM. */
    public static AnvilNode anvil(String name, long chainId) {
        return anvil(name, chainId, 0);
    }

    public static synchronized AnvilNode anvil(String name, long chainId, int blockTimeSeconds) {
        return ANVILS.computeIfAbsent(name, n -> {
            Path dir = RepoPaths.testScratch("anvil-" + n);
            return AnvilNode.start(n, chainId, Ports.free(), blockTimeSeconds, null, dir.resolve("anvil.log"));
        });
    }

    /** Stops and forgets an anvil (for outage tests); the next {@link #anvil} call starts a fresh one. */
    public static synchronized void stopAnvil(String name) {
        AnvilNode node = ANVILS.remove(name);
        if (node != null) {
            node.close();
        }
    }

    /** The JVM's local Solana chain (LiteSVM behind JSON-RPC), started once, with {@link #solanaPayer()} funded. */
    public static synchronized SolanaNode solana() {
        if (solana == null) {
            Path dir = RepoPaths.testScratch("solana");
            solana = SolanaNode.start(Ports.free(), dir.resolve("solana.json"), dir.resolve("solana.log"),
                    SOLANA_PAYER.secret(), SOLANA_TEST_FINALITY_LAG, List.of(SOLANA_FEE_PAYER.address()), List.of());
        }
        return solana;
    }

    public static SolanaKeys.Keypair solanaPayer() {
        return SOLANA_PAYER;
    }

    public static SolanaKeys.Keypair solanaFeePayer() {
        return SOLANA_FEE_PAYER;
    }
}
