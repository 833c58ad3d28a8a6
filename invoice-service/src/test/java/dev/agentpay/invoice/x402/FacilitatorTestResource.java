package dev.agentpay.invoice.x402;

import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.ManagedProcess;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.solana.SolanaNode;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real x402 chain side for tests: the local base chain (anvil, chain id 8453) with USDC at its
 * canonical address, the payer funded, the local Solana chain (LiteSVM behind JSON-RPC, USDC at the
 * canonical mint, {@code SharedServers.solanaPayer()} funded), and the local facilitator ({@code deploy/local/node/facilitator.mjs},
 * the official {@code x402} package's verify/settle) on a free port. The app gets the facilitator URL, the
 * chain's RPC and a seller wallet.
 */
public class FacilitatorTestResource implements QuarkusTestResourceLifecycleManager {

    /** anvil dev account #1 pays; #2 is the facilitator's gas wallet. */
    public static final String PAYER_KEY = AnvilNode.DEV_KEY_1;
    public static final String PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    public static final String FACILITATOR_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a";
    /** anvil dev account #5, checksummed (viem refuses a payTo with a bad checksum). */
    public static final String SELLER = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";

    /** The seller's Solana wallet (x402 payTo on the Solana rail). */
    public static final String SOLANA_SELLER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

    private static AnvilNode base;
    private static int port;
    private static ManagedProcess facilitator;

    @Override
    public synchronized Map<String, String> start() {
        base = SharedServers.anvil("base", 8453);
        EvmRpc rpc = new EvmRpc(base.rpcUrl());
        UsdcInstaller.install(rpc, UsdcInstaller.BASE);
        UsdcInstaller.mint(rpc, UsdcInstaller.BASE.address(), PAYER, BigInteger.valueOf(1_000_000_000L));
        // x402's exact scheme pays into the seller's associated token account, which must exist: one
        // atomic unit paid by a real transaction creates it (as a seller's first receipt would).
        SolanaNode.pay(SharedServers.solana().rpcUrl(), SharedServers.solanaPayer().secret(), SOLANA_SELLER, 1, null);
        port = Ports.free();
        startFacilitator();
        return Map.of(
                "x402.facilitator.url", facilitatorUrl(),
                "x402.facilitator.retries", "1",
                "x402.facilitator.backoff", "PT0.05S",
                "chains.base.rpc-url", base.rpcUrl(),
                "chains.base.payment-address", SELLER,
                "chains.solana.rpc-url", SharedServers.solana().rpcUrl(),
                "chains.solana.payment-address", SOLANA_SELLER,
                "x402.solana.fee-payer", SharedServers.solanaFeePayer().address());
    }

    public static String rpcUrl() {
        return base.rpcUrl();
    }

    public static String facilitatorUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** Starts (or restarts, on the same port) the facilitator and waits for {@code /supported}. */
    public static synchronized void startFacilitator() {
        if (facilitator != null && facilitator.isAlive()) {
            return;
        }
        facilitator = ManagedProcess.start("x402-facilitator", List.of("node", "facilitator.mjs"),
                Map.of("PORT", Integer.toString(port), "BASE_RPC_URL", base.rpcUrl(), "FACILITATOR_PRIVATE_KEY", FACILITATOR_KEY,
                        "SOLANA_RPC_URL", SharedServers.solana().rpcUrl(),
                        "SOLANA_FEE_PAYER_SECRET_KEY", SharedServers.solanaFeePayer().secret()),
                RepoPaths.nodeDir(), RepoPaths.testScratch("facilitator").resolve("facilitator.log"));
        HttpClient http = HttpClient.newHttpClient();
        await("the facilitator answering /supported; see " + facilitator.log()).atMost(Duration.ofSeconds(30))
                .failFast("facilitator exited; see " + facilitator.log(), () -> !facilitator.isAlive())
                .ignoreExceptionsInstanceOf(java.io.IOException.class)
                .until(() -> http.send(HttpRequest.newBuilder(URI.create(facilitatorUrl() + "/supported")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
    }

    public static synchronized void stopFacilitator() {
        if (facilitator != null) {
            facilitator.stop();
        }
    }

    @Override
    public synchronized void stop() {
        stopFacilitator();
    }
}
