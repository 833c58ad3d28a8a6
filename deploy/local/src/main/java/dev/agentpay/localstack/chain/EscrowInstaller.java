package dev.agentpay.localstack.chain;

import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
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
        Path bin = RepoPaths.root().resolve("settlement-watcher/src/main/resources/contracts/MandateEscrow.bin");
        try {
            return Files.readString(bin).trim().replaceFirst("^0x", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + bin, e);
        }
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
        try {
            if (Files.exists(remembered)) {
                String address = Files.readString(remembered).trim();
                if (rpc.getCode(address).length() > 2 && word(rpc, address, "0xfc0c546a").equalsIgnoreCase(token)
                        && word(rpc, address, "0x570ca735").equalsIgnoreCase(operator)) {
                    return address;
                }
            }
            String address = deploy(rpc, deployer, token, operator, graceSeconds);
            Files.createDirectories(remembered.getParent());
            Files.writeString(remembered, address);
            return address;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An address-returning view: token() is 0xfc0c546a, operator() 0x570ca735. */
    private static String word(EvmRpc rpc, String contract, String selector) {
        String w = rpc.ethCall(contract, selector);
        return "0x" + w.substring(w.length() - 40);
    }
}
