package dev.agentpay.localstack;

/**
 * A local chain node: one child process ({@link ManagedProcess}) serving JSON-RPC on a loopback port
 * ({@link AnvilNode}, {@link dev.agentpay.localstack.solana.SolanaNode}). It is alive while its process is.
 */
public abstract class RpcNode {

    protected final int port;
    protected final ManagedProcess process;

    protected RpcNode(int port, ManagedProcess process) {
        this.port = port;
        this.process = process;
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

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }
}
