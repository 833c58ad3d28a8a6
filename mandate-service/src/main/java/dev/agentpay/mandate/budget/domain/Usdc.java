package dev.agentpay.mandate.budget.domain;

import java.math.BigDecimal;
import java.math.BigInteger;

/** USDC amounts: decimal text (at most 6 decimals) and atomic units (10^-6 USDC), converted exactly. */
public final class Usdc {

    public static final int DECIMALS = 6;
    /** A decimal as budgets and charges take it: no sign, no exponent, no leading zeros, at most 6 decimals. */
    public static final String PATTERN = "^(0|[1-9][0-9]{0,11})(\\.[0-9]{1,6})?$";
    public static final String RULE = "must be a decimal string of USDC with at most 6 decimals (e.g. \"1.50\")";

    private Usdc() {
    }

    /** The atomic units of a decimal text that matched {@link #PATTERN}. */
    public static BigInteger atomic(String decimal) {
        return new BigDecimal(decimal).movePointRight(DECIMALS).toBigIntegerExact();
    }

    /** The atomic units of an exact decimal; {@code ArithmeticException} if it has more than 6 decimals. */
    public static BigInteger atomic(BigDecimal decimal) {
        return decimal.movePointRight(DECIMALS).toBigIntegerExact();
    }

    /** Plain decimal text of atomic units without trailing zeros: {@code 1500000} is {@code "1.5"}, 0 is {@code "0"}. */
    public static String text(BigInteger atomic) {
        if (atomic.signum() == 0) {
            return "0";
        }
        return new BigDecimal(atomic, DECIMALS).stripTrailingZeros().toPlainString();
    }
}
