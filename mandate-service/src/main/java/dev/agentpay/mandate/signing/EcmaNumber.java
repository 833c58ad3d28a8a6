package dev.agentpay.mandate.signing;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * ECMAScript {@code Number::toString(x)} (ECMA-262 §6.1.6.1.20) and the number branch of
 * {@code JSON.stringify}.
 *
 * <p>Java 17's {@link Double#toString(double)} is not the shortest round-trip form for every double
 * (for example {@code 2.82879384806159E17} prints with an extra digit), so the digits are searched
 * here exactly: for each length from 1 to 17 the two decimal neighbours of the exact binary value are
 * tried and the first length with a neighbour that reads back to the same double wins; between two
 * such neighbours the closer one is taken, as the specification requires and V8 does.
 */
public final class EcmaNumber {

    /** 2^53: below it every integral double prints as its exact integer. */
    private static final double TWO_POW_53 = 9_007_199_254_740_992d;

    private EcmaNumber() {
    }

    /** What {@code JSON.stringify} writes for the number: {@code null} when it is not finite. */
    public static String toJson(double x) {
        return Double.isFinite(x) ? toString(x) : "null";
    }

    /** {@code String(x)} in JavaScript. */
    public static String toString(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (x == 0) {
            return "0"; // also -0
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "Infinity" : "-Infinity";
        }
        if (x < 0) {
            return "-" + toString(-x);
        }
        if (x < TWO_POW_53 && x == Math.rint(x)) {
            return Long.toString((long) x);
        }
        BigDecimal shortest = shortestDigits(x).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale();
        return layout(digits, k, n);
    }

    /** The shortest decimal that reads back as {@code x} (positive, finite), closest to x on ties. */
    private static BigDecimal shortestDigits(double x) {
        BigDecimal exact = new BigDecimal(x);
        for (int p = 1; p < 17; p++) {
            BigDecimal below = exact.round(new MathContext(p, RoundingMode.FLOOR));
            BigDecimal above = exact.round(new MathContext(p, RoundingMode.CEILING));
            boolean belowOk = below.doubleValue() == x;
            boolean aboveOk = above.doubleValue() == x;
            if (belowOk && aboveOk) {
                int cmp = exact.subtract(below).compareTo(above.subtract(exact));
                if (cmp < 0) {
                    return below;
                }
                if (cmp > 0) {
                    return above;
                }
                return lastDigitEven(below) ? below : above;
            }
            if (belowOk) {
                return below;
            }
            if (aboveOk) {
                return above;
            }
        }
        // 17 significant digits always identify a double; the nearest one is the closest candidate.
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
    }

    private static boolean lastDigitEven(BigDecimal d) {
        return !d.unscaledValue().testBit(0);
    }

    /** Steps 6 to 10 of Number::toString, with s = digits (k of them) and x = s × 10^(n−k). */
    private static String layout(String digits, int k, int n) {
        StringBuilder out = new StringBuilder(k + 8);
        if (k <= n && n <= 21) {
            out.append(digits);
            out.append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            int e = n - 1;
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            out.append('e').append(e >= 0 ? '+' : '-').append(Math.abs(e));
        }
        return out.toString();
    }
}
