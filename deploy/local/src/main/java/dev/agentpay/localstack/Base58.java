package dev.agentpay.localstack;

import java.math.BigInteger;

/** Bitcoin-alphabet base58, as Solana writes public keys and signatures. */
public final class Base58 {

    private static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final BigInteger BASE = BigInteger.valueOf(58);

    private Base58() {
    }

    public static String encode(byte[] bytes) {
        BigInteger n = new BigInteger(1, bytes);
        StringBuilder sb = new StringBuilder();
        while (n.signum() > 0) {
            BigInteger[] qr = n.divideAndRemainder(BASE);
            sb.append(ALPHABET.charAt(qr[1].intValue()));
            n = qr[0];
        }
        for (int i = 0; i < bytes.length && bytes[i] == 0; i++) {
            sb.append('1');
        }
        return sb.reverse().toString();
    }
}
