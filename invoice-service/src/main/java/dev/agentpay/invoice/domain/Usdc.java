package dev.agentpay.invoice.domain;

import java.math.BigDecimal;
import java.math.BigInteger;

/** USDC has 6 decimals on every supported chain. */
public final class Usdc {

    public static final int DECIMALS = 6;

    private Usdc() {
    }

    public static BigInteger toAtomic(BigDecimal amount) {
        return amount.movePointRight(DECIMALS).toBigIntegerExact();
    }

    public static BigDecimal fromAtomic(BigInteger atomic) {
        return plain(new BigDecimal(atomic, DECIMALS));
    }

    /** Without trailing zeros and never in exponent form, so JSON shows {@code 10} or {@code 10.5}. */
    public static BigDecimal plain(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }
}
