package dev.agentpay.localstack.chain;

import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Deploys settlement-watcher's {@code DepositFactory} (the CREATE2 factory of the invoices' own payment
 * addresses) on a local EVM chain, its treasury being the chain's seller wallet. The compiled creation
 * code is the committed artifact {@code settlement-watcher/src/main/resources/contracts/DepositFactory.bin}.
 */
public final class DepositFactoryInstaller {

    private DepositFactoryInstaller() {
    }

    /** The factory's creation code (no constructor arguments, no 0x). */
    public static String creationCode() {
        Path bin = RepoPaths.root().resolve("settlement-watcher/src/main/resources/contracts/DepositFactory.bin");
        try {
            return Files.readString(bin).trim().replaceFirst("^0x", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + bin, e);
        }
    }

    /** Deploys a new factory paying {@code treasury} from an unlocked account; returns its address. */
    public static String deploy(EvmRpc rpc, String deployer, String treasury) {
        return rpc.deploy(deployer, "0x" + creationCode() + EvmRpc.word(treasury));
    }

    /**
     * The factory remembered in {@code remembered} if it still has code and pays {@code treasury}; else a
     * new one, remembered there (anvil keeps its state across restarts, so addresses stay put).
     */
    public static String ensure(EvmRpc rpc, String deployer, String treasury, Path remembered) {
        try {
            if (Files.exists(remembered)) {
                String address = Files.readString(remembered).trim();
                if (rpc.getCode(address).length() > 2 && treasury(rpc, address).equalsIgnoreCase(treasury)) {
                    return address;
                }
            }
            String address = deploy(rpc, deployer, treasury);
            Files.createDirectories(remembered.getParent());
            Files.writeString(remembered, address);
            return address;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The factory's treasury, read from the chain. */
    public static String treasury(EvmRpc rpc, String factory) {
        // treasury() selector: keccak256("treasury()")[0..4]
        String word = rpc.ethCall(factory, "0x61d027b3");
        return "0x" + word.substring(word.length() - 40);
    }
}
