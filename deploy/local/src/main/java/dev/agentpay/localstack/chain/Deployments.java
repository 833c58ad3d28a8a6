package dev.agentpay.localstack.chain;

import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What deploying one of settlement-watcher's contracts on a local chain takes, whichever the contract
 * ({@link DepositFactoryInstaller}, {@link EscrowInstaller}): its committed creation code, and a deployment
 * remembered in a file so that a restart finds the same address (and what is held there) again.
 */
final class Deployments {

    private Deployments() {
    }

    /** The creation code of the committed artifact {@code settlement-watcher/.../contracts/<contract>.bin} (no 0x). */
    static String creationCode(String contract) {
        Path bin = RepoPaths.root().resolve("settlement-watcher/src/main/resources/contracts/" + contract + ".bin");
        try {
            return Files.readString(bin).trim().replaceFirst("^0x", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + bin, e);
        }
    }

    /**
     * The contract remembered in {@code remembered} if it still has code and is the one wanted ({@code wanted}: its
     * views answer what this deployment would have been given); else a new one from {@code deploy}, remembered there
     * (anvil keeps its state across restarts and snapshots, so addresses stay put).
     */
    static String ensure(EvmRpc rpc, Path remembered, Predicate<String> wanted, Supplier<String> deploy) {
        try {
            if (Files.exists(remembered)) {
                String address = Files.readString(remembered).trim();
                if (rpc.getCode(address).length() > 2 && wanted.test(address)) {
                    return address;
                }
            }
            String address = deploy.get();
            Files.createDirectories(remembered.getParent());
            Files.writeString(remembered, address);
            return address;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
