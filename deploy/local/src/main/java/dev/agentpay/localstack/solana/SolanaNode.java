package dev.agentpay.localstack.solana;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.ManagedProcess;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.RpcNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The local Solana chain: {@code deploy/local/node/solana-rpc.mjs}, a JSON-RPC server over LiteSVM (the
 * real Solana runtime with the SPL Token, Token-2022, Associated Token Account and Memo programs) that
 * executes signed transactions, advances a slot every 400 ms and honours processed / confirmed /
 * finalized with a finality lag. USDC lives at the canonical mint {@link #USDC_MINT} with a local mint
 * authority; the dev payer gets SOL and 1,000,000 USDC at genesis. State is kept in a file across restarts.
 */
public final class SolanaNode extends RpcNode implements AutoCloseable {

    public static final String USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    /** Slots between landing and {@code finalized} on the local chain (Solana: about 32). */
    public static final int FINALITY_LAG = 32;

    private static final ObjectMapper JSON = new ObjectMapper();

    private SolanaNode(int port, ManagedProcess process) {
        super(port, process);
    }

    /**
     * @param stateFile      where the chain keeps its state ({@code null}: in memory only)
     * @param devPayerSecret base58 64-byte secret key funded at genesis ({@code null}: none)
     * @param finalityLag    slots until a transaction is finalized
     * @param fund           addresses given SOL when they have none (fee payers)
     * @param usdcOwners     wallets given an empty USDC associated token account when they have none (sellers:
     *                       x402's exact scheme pays into an existing one)
     */
    public static SolanaNode start(int port, Path stateFile, Path log, String devPayerSecret, int finalityLag, List<String> fund,
            List<String> usdcOwners) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PORT", Integer.toString(port));
        env.put("FINALITY_LAG", Integer.toString(finalityLag));
        if (stateFile != null) {
            env.put("STATE_FILE", stateFile.toString());
        }
        if (devPayerSecret != null) {
            env.put("DEV_PAYER_SECRET_KEY", devPayerSecret);
        }
        env.put("FUND_ADDRESSES", String.join(",", fund));
        env.put("USDC_ACCOUNT_OWNERS", String.join(",", usdcOwners));
        ManagedProcess mp = ManagedProcess.start("solana", List.of("node", "solana-rpc.mjs"), env, RepoPaths.nodeDir(), log);
        Ports.awaitListening(port, Duration.ofSeconds(30), mp);
        return new SolanaNode(port, mp);
    }

    @Override
    public void close() {
        process.stop();
    }

    /** What {@code solana-pay.mjs} answered: the signature and slot, or an error. */
    public record Payment(String signature, long slot, String err, String mint, String destination) {
        public boolean failed() {
            return err != null;
        }
    }

    /**
     * Signs and sends one USDC {@code TransferChecked} (with an idempotent ATA create and an optional
     * spl-memo) from {@code payerSecret} to {@code owner}'s associated token account, waiting until it is
     * confirmed. {@code options} are extra {@code solana-pay.mjs} flags ({@code --new-mint},
     * {@code --fail}, {@code --to-account X}, {@code --commitment finalized}).
     */
    public static Payment pay(String rpcUrl, String payerSecret, String owner, long amount, String memo, String... options) {
        List<String> cmd = new ArrayList<>(List.of("node", "solana-pay.mjs", "--rpc", rpcUrl, "--payer", payerSecret,
                "--to", owner, "--amount", Long.toString(amount)));
        if (memo != null) {
            cmd.addAll(List.of("--memo", memo));
        }
        cmd.addAll(List.of(options));
        try {
            Process p = new ProcessBuilder(cmd).directory(RepoPaths.nodeDir().toFile()).redirectErrorStream(false).start();
            byte[] out = p.getInputStream().readAllBytes();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("solana-pay.mjs did not finish");
            }
            JsonNode r = JSON.readTree(out);
            if (r == null || r.has("error")) {
                throw new IllegalStateException("solana-pay.mjs failed: " + (r == null ? err : r.toString()));
            }
            return new Payment(r.path("signature").asText(), r.path("slot").asLong(),
                    r.path("err").isNull() ? null : r.path("err").toString(), r.path("mint").asText(), r.path("destination").asText());
        } catch (IOException e) {
            throw new IllegalStateException("cannot run solana-pay.mjs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
