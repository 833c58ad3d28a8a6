package dev.agentpay.invoice.deposit.domain;

import dev.agentpay.commons.chains.Create2;
import java.util.UUID;
import org.web3j.crypto.Keys;
import org.web3j.utils.Numeric;

/**
 * An EVM invoice's own payment address: the CREATE2 address of a {@code DepositForwarder} that the chain's
 * {@code DepositFactory} (settlement-watcher/src/main/solidity/DepositFactory.sol) deploys with the
 * invoice's salt ({@link Create2#invoiceSalt}): {@code keccak256(0xff ++ factory ++ salt ++ keccak256(forwarderInitCode))[12:]}. Nothing
 * is deployed to receive: USDC can be sent to the address before any code lives there, and only the
 * factory can later move it, and only to its treasury (the seller wallet).
 */
public final class DepositAddress {

    /**
     * keccak256 of the forwarder's init code as compiled from the committed source (the factory's
     * {@code forwarderInitCodeHash()}; a test compares the two on anvil, so a change of the contract
     * without this constant fails the build).
     */
    public static final String FORWARDER_INIT_CODE_HASH = "0x3f54d7db9b7759de28e0fd764485d35866ce7a50ed6e846460d60b29cb510136";

    private static final byte[] INIT_CODE_HASH = Numeric.hexStringToByteArray(FORWARDER_INIT_CODE_HASH);

    private DepositAddress() {
    }

    /** The deposit address of {@code invoiceId} under {@code factory}, EIP-55 checksummed ({@link Create2}, shared with the sweeper). */
    public static String of(String factory, UUID invoiceId) {
        byte[] f = Numeric.hexStringToByteArray(factory);
        if (f.length != 20) {
            throw new IllegalArgumentException("factory is not a 20-byte address: " + factory);
        }
        return Keys.toChecksumAddress(Numeric.toHexString(Create2.address(f, Create2.invoiceSalt(invoiceId), INIT_CODE_HASH)));
    }
}
