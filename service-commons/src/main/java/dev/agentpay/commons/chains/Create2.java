package dev.agentpay.commons.chains;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;
import org.bouncycastle.jcajce.provider.digest.Keccak;

/**
 * The one CREATE2 derivation of an invoice's own payment address (issue 33 item 9), used by invoice-service (the
 * address it gives the payer) and settlement-watcher (the salts it sweeps with): both must agree to the byte, so
 * there is one function. The deposit factory deploys a forwarder at
 * {@code keccak256(0xff ++ factory ++ salt ++ keccak256(forwarderInitCode))[12:]} (EIP-1014).
 */
public final class Create2 {

    private Create2() {
    }

    /** The invoice's CREATE2 salt: keccak-256 of its id in canonical lower-case UUID text (36 ASCII bytes). */
    public static byte[] invoiceSalt(UUID invoiceId) {
        return keccak256(invoiceId.toString().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The 20-byte address CREATE2 gives code with {@code initCodeHash} deployed by {@code deployer} with {@code salt}
     * (EIP-1014).
     */
    public static byte[] address(byte[] deployer, byte[] salt, byte[] initCodeHash) {
        if (deployer.length != 20 || salt.length != 32 || initCodeHash.length != 32) {
            throw new IllegalArgumentException("CREATE2 takes a 20-byte deployer, a 32-byte salt and a 32-byte init code hash");
        }
        byte[] buf = new byte[1 + 20 + 32 + 32];
        buf[0] = (byte) 0xff;
        System.arraycopy(deployer, 0, buf, 1, 20);
        System.arraycopy(salt, 0, buf, 21, 32);
        System.arraycopy(initCodeHash, 0, buf, 53, 32);
        byte[] hash = keccak256(buf);
        byte[] out = new byte[20];
        System.arraycopy(hash, 12, out, 0, 20);
        return out;
    }

    /** Ethereum's keccak-256 (not NIST SHA3-256, whose padding differs). */
    public static byte[] keccak256(byte[] input) {
        return new Keccak.Digest256().digest(input);
    }
}
