package dev.agentpay.localstack.solana;

import org.p2p.solanaj.utils.Base58;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Arrays;

/** Solana keypairs from the JDK's Ed25519: the 64-byte secret key (seed then public key) as wallets export it. */
public final class SolanaKeys {

    /** {@code secret}: base58 of the 64-byte secret key; {@code address}: base58 of the public key. */
    public record Keypair(String secret, String address) {
    }

    private SolanaKeys() {
    }

    public static Keypair generate() {
        try {
            KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            // PKCS#8 of an Ed25519 key ends with the 32-byte seed; X.509 of the public key ends with its 32 bytes.
            byte[] priv = kp.getPrivate().getEncoded();
            byte[] pub = kp.getPublic().getEncoded();
            byte[] seed = Arrays.copyOfRange(priv, priv.length - 32, priv.length);
            byte[] key = Arrays.copyOfRange(pub, pub.length - 32, pub.length);
            byte[] secret = new byte[64];
            System.arraycopy(seed, 0, secret, 0, 32);
            System.arraycopy(key, 0, secret, 32, 32);
            return new Keypair(Base58.encode(secret), Base58.encode(key));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }
}
