package dev.agentpay.localstack.chain;

import java.math.BigInteger;
import java.nio.file.Path;

/**
 * Deploys settlement-watcher's {@code MandateEscrow} (issue 30: a mandate's budget held in USDC between its two
 * parties) on a local EVM chain: {@code constructor(token, operator, grace)}. The compiled creation code is the
 * committed artifact {@code settlement-watcher/src/main/resources/contracts/MandateEscrow.bin}.
 */
public final class EscrowInstaller {

    /** The grace (seconds after a mandate's expiry) the local stack deploys with: one hour. */
    public static final long LOCAL_GRACE_SECONDS = 3600;

    private EscrowInstaller() {
    }

    /** The escrow's creation code (no constructor arguments, no 0x). */
    public static String creationCode() {
        return Deployments.creationCode("MandateEscrow");
    }

    /** Deploys a new escrow holding {@code token}, operated by {@code operator}; returns its address. */
    public static String deploy(EvmRpc rpc, String deployer, String token, String operator, long graceSeconds) {
        return rpc.deploy(deployer, "0x" + creationCode() + EvmRpc.word(token) + EvmRpc.word(operator)
                + EvmRpc.word(BigInteger.valueOf(graceSeconds)));
    }

    /**
     * The escrow remembered in {@code remembered} if it still has code and holds {@code token} for {@code operator};
     * else a new one, remembered there (anvil keeps its state across restarts and snapshots, so the address, and the
     * money held at it, stay put).
     */
    public static String ensure(EvmRpc rpc, String deployer, String token, String operator, long graceSeconds, Path remembered) {
        // token() is 0xfc0c546a, operator() 0x570ca735
        return Deployments.ensure(rpc, remembered, address -> rpc.addressCall(address, "0xfc0c546a").equalsIgnoreCase(token)
                && rpc.addressCall(address, "0x570ca735").equalsIgnoreCase(operator),
                () -> deploy(rpc, deployer, token, operator, graceSeconds));
    }
}
