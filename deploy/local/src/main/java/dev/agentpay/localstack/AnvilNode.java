package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.chain.EvmRpc;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.zip.GZIPInputStream;

/**
 * One anvil dev chain (Foundry) with a real chain id. With a state file, the chain's state survives a
 * stop and a crash: anvil loads the file at start ({@code --load-state}), and {@link #saveState()} (the
 * launcher calls it every few seconds and once more just before it stops the chain) takes a snapshot
 * over RPC ({@code anvil_dumpState}) and writes it to a temporary file that is then renamed over the
 * state file, so the file is always a complete snapshot, never a half-written one. Beside it, a mark
 * ({@code <state>.mark}) records the newest block the snapshot holds (number and hash): a chain started
 * later must show that block, else its state was lost (see {@link #verifyMark}).
 *
 * <p>anvil's own {@code --state}/{@code --state-interval} dumps are not used: anvil truncates and
 * rewrites the file in place, so a stop that reached it mid-dump (the npm wrapper forwarded SIGTERM and
 * exited, and its child was then killed) left a 0-byte or cut file (issue 16).
 */
public final class AnvilNode extends RpcNode implements AutoCloseable, Supervisor.Supervised {

    /** anvil's first default account (mnemonic "test test ... junk"); a well-known development key. */
    public static final String DEV_KEY_0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
    public static final String DEV_ADDRESS_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    /** anvil's second default account. */
    public static final String DEV_KEY_1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

    /** How long a stopping anvil may take after SIGTERM before it is killed. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);

    private final String name;
    private final long chainId;
    private final Path stateFile;

    private AnvilNode(String name, long chainId, int port, ManagedProcess process, Path stateFile) {
        super(port, process);
        this.name = name;
        this.chainId = chainId;
        this.stateFile = stateFile;
    }

    /**
     * @param blockTimeSeconds 0 for a block per transaction (instant), else a block every N seconds
     * @param stateFile        where the chain's state is kept across restarts ({@link #saveState}), or {@code null}
     */
    public static AnvilNode start(String name, long chainId, int port, int blockTimeSeconds, Path stateFile, Path log) {
        List<String> cmd = new ArrayList<>();
        // Its own session: a Ctrl-C in the launcher's terminal reaches the launcher, which saves the
        // chain's state before it stops the chain; anvil itself must not exit first.
        if (stateFile != null && Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        cmd.addAll(List.of(binary().toString(),
                "--host", "127.0.0.1", "--port", Integer.toString(port),
                "--chain-id", Long.toString(chainId),
                "--accounts", "10", "--balance", "1000000"));
        if (blockTimeSeconds > 0) {
            cmd.addAll(List.of("--block-time", Integer.toString(blockTimeSeconds)));
        }
        if (stateFile != null && Files.exists(stateFile)) {
            cmd.addAll(List.of("--load-state", stateFile.toString()));
        }
        ManagedProcess mp = ManagedProcess.start("anvil-" + name, cmd, Map.of(), log.getParent(), log);
        Ports.awaitListening(port, Duration.ofSeconds(30), mp);
        return new AnvilNode(name, chainId, port, mp, stateFile);
    }

    /**
     * The anvil binary itself when the npm package ships it for this platform (signals then reach the
     * node, not a wrapper that exits before it), else the npm wrapper.
     */
    static Path binary() {
        Path scope = RepoPaths.nodeDir().resolve("node_modules/@foundry-rs");
        try (var dirs = Files.list(scope)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("anvil-"))
                    .map(d -> d.resolve("bin/anvil"))
                    .filter(Files::isExecutable)
                    .findFirst()
                    .orElseGet(() -> RepoPaths.nodeBin("anvil"));
        } catch (IOException e) {
            return RepoPaths.nodeBin("anvil");
        }
    }

    public String name() {
        return name;
    }

    public long chainId() {
        return chainId;
    }

    public Path stateFile() {
        return stateFile;
    }

    /** The mark file beside a state file: the newest block its snapshot holds. */
    public static Path markFile(Path stateFile) {
        return stateFile.resolveSibling(stateFile.getFileName() + ".mark");
    }

    /**
     * Takes a snapshot of the running chain and replaces the state file with it atomically (temporary
     * file, fsync, rename), then its mark. Does nothing without a state file or when the node is not
     * running (the last good snapshot stays).
     *
     * @return whether a snapshot was written
     */
    public synchronized boolean saveState() throws IOException {
        if (stateFile == null || !process.isAlive()) {
            return false;
        }
        EvmRpc rpc = new EvmRpc(rpcUrl());
        // The block is read before the dump, so the dump holds it (blocks only get added in between).
        JsonNode block = rpc.call("eth_getBlockByNumber", "latest", false);
        String hex = rpc.call("anvil_dumpState").asText();
        byte[] raw = HexFormat.of().parseHex(hex.startsWith("0x") ? hex.substring(2) : hex);
        byte[] state = isGzip(raw) ? gunzip(raw) : raw;
        // gzip's CRC already vouches for the bytes; a full parse of a long-running chain's state (tens of MB)
        // every few seconds would cost more than the dump, so only its shape is checked here
        if (!looksLikeJsonObject(state)) {
            throw new IOException("anvil " + name + " returned a state that is not a JSON object");
        }
        writeAtomically(stateFile, state);
        Properties mark = new Properties();
        mark.setProperty("chain_id", Long.toString(chainId));
        mark.setProperty("block_number", Long.toString(Long.decode(block.get("number").asText())));
        mark.setProperty("block_hash", block.get("hash").asText());
        var out = new java.io.StringWriter();
        mark.store(out, "newest block in " + stateFile.getFileName() + " (written with it by deploy/local)");
        writeAtomically(markFile(stateFile), out.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return true;
    }

    /**
     * Checks that this chain holds the block its state's mark records. Returns null when it does (or
     * when there is no mark: a new chain), else what is wrong.
     */
    public String verifyMark() {
        if (stateFile == null || !Files.exists(markFile(stateFile))) {
            return null;
        }
        Properties mark = new Properties();
        try (var in = Files.newBufferedReader(markFile(stateFile))) {
            mark.load(in);
        } catch (IOException e) {
            return "its mark " + markFile(stateFile) + " is unreadable: " + e.getMessage();
        }
        long number = Long.parseLong(mark.getProperty("block_number", "0"));
        String hash = mark.getProperty("block_hash", "");
        JsonNode block = new EvmRpc(rpcUrl()).call("eth_getBlockByNumber", "0x" + Long.toHexString(number), false);
        if (block == null || block.isNull()) {
            return "it was at block " + number + " when last saved but now has no such block (its state is lost)";
        }
        if (!hash.equalsIgnoreCase(block.path("hash").asText())) {
            return "its block " + number + " is " + block.path("hash").asText() + ", not " + hash
                    + " as when last saved (a different chain)";
        }
        return null;
    }

    static boolean looksLikeJsonObject(byte[] b) {
        int i = 0;
        int j = b.length - 1;
        while (i < b.length && Character.isWhitespace(b[i])) {
            i++;
        }
        while (j > i && Character.isWhitespace(b[j])) {
            j--;
        }
        return j > i && b[i] == '{' && b[j] == '}';
    }

    private static boolean isGzip(byte[] b) {
        return b.length > 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
    }

    private static byte[] gunzip(byte[] b) throws IOException {
        try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(b))) {
            return in.readAllBytes();
        }
    }

    /** Writes {@code bytes} to a temporary file beside {@code target}, flushes it to disk, renames it over {@code target}. */
    static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE); OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
            out.write(bytes);
            out.flush();
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Saves the chain's state (when it runs), then stops it with SIGTERM and waits for it to exit. */
    @Override
    public void stop() {
        try {
            saveState();
        } catch (IOException | RuntimeException e) {
            System.err.printf("anvil %s: final state not saved (%s); %s keeps the last snapshot%n", name, e.getMessage(), stateFile);
        }
        process.stop(STOP_GRACE);
    }

    @Override
    public void close() {
        stop();
    }
}
