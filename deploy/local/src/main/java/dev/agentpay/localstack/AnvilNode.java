package dev.agentpay.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One anvil dev chain (Foundry) with a real chain id; its state is kept in a file when given one. */
public final class AnvilNode implements AutoCloseable {

    /** anvil's first default account (mnemonic "test test ... junk"); a well-known development key. */
    public static final String DEV_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    public static final String DEV_ADDRESS_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    /** anvil's second default account. */
    public static final String DEV_KEY_1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

    private final String name;
    private final long chainId;
    private final int port;
    private final ManagedProcess process;

    private AnvilNode(String name, long chainId, int port, ManagedProcess process) {
        this.name = name;
        this.chainId = chainId;
        this.port = port;
        this.process = process;
    }

    /**
     * @param blockTimeSeconds 0 for a block per transaction (instant), else a block every N seconds
     * @param stateFile        where anvil keeps its state across restarts, or {@code null}
     */
    public static AnvilNode start(String name, long chainId, int port, int blockTimeSeconds, Path stateFile, Path log) {
        List<String> cmd = new ArrayList<>(List.of(RepoPaths.nodeBin("anvil").toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port),
                "--chain-id", Long.toString(chainId),
                "--accounts", "10", "--balance", "1000000"));
        if (blockTimeSeconds > 0) {
            cmd.addAll(List.of("--block-time", Integer.toString(blockTimeSeconds)));
        }
        if (stateFile != null) {
            cmd.addAll(List.of("--state", stateFile.toString(), "--state-interval", "5"));
        }
        ManagedProcess mp = ManagedProcess.start("anvil-" + name, cmd, Map.of(), log.getParent(), log);
        Ports.awaitListening(port, Duration.ofSeconds(30), mp);
        return new AnvilNode(name, chainId, port, mp);
    }

    public String name() {
        return name;
    }

    public long chainId() {
        return chainId;
    }

    public int port() {
        return port;
    }

    public String rpcUrl() {
        return "http://127.0.0.1:" + port;
    }

    public ManagedProcess process() {
        return process;
    }

    @Override
    public void close() {
        process.stop();
    }
}
