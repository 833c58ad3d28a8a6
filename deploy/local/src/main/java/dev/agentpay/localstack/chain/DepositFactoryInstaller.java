package dev.agentpay.localstack.chain;

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
        return Deployments.creationCode("DepositFactory");
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
        return Deployments.ensure(rpc, remembered, address -> treasury(rpc, address).equalsIgnoreCase(treasury),
                () -> deploy(rpc, deployer, treasury));
    }

    /** The factory's treasury, read from the chain. */
    public static String treasury(EvmRpc rpc, String factory) {
        // treasury() selector: keccak256("treasury()")[0..4]
        return rpc.addressCall(factory, "0x61d027b3");
    }
}
