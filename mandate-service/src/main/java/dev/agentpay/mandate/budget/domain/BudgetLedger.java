package dev.agentpay.mandate.budget.domain;

import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;

/**
 * The money state of one budget for its current period, in atomic USDC units, and every rule that changes it.
 * The service loads it from the budget row it holds locked ({@code select ... for update}), applies one
 * operation and writes it back in the same transaction, so operations on one budget apply one after the other
 * and each sees the previous one's result; {@code BudgetLedgerPropertiesTest} checks the invariant over random
 * interleavings of these operations.
 *
 * <p>Invariant, at every instant: {@code 0 <= reserved}, {@code 0 <= spent}, {@code spent + reserved <= amount}.
 * <ul>
 * <li>{@link #reserve}: refuses unless {@code spent + reserved + x <= amount} (and {@code x <= max_per_charge});
 * <li>{@link #settle}: moves {@code x} from reserved to spent (the sum does not change);
 * <li>{@link #release}: gives {@code x} of reserved back;
 * <li>{@link #roll}: at a period boundary {@code spent} starts again from 0; reservations still open stay
 * reserved in the new period (their invoices may still be paid) and count as spent in the period they
 * settle in. Both only lower the sum.
 * </ul>
 */
public final class BudgetLedger {

    /** What {@link #reserve} decided. */
    public enum Decision { RESERVED, OVER_LIMIT, EXCEEDED }

    private final BigInteger amount;
    private final Duration period;
    private Instant periodStart;
    private BigInteger reserved;
    private BigInteger spent;

    public BudgetLedger(BigInteger amount, Duration period, Instant periodStart, BigInteger reserved, BigInteger spent) {
        this.amount = amount;
        this.period = period;
        this.periodStart = periodStart;
        this.reserved = reserved;
        this.spent = spent;
    }

    /**
     * The start of the period {@code now} lies in, counted from {@code anchor} (the instant the mandate became
     * signed by every party): {@code anchor + k * period} for the largest {@code k >= 0} not after {@code now};
     * {@code anchor} itself when the budget has no period.
     */
    public static Instant periodStartAt(Instant anchor, Duration period, Instant now) {
        if (period == null || now.isBefore(anchor)) {
            return anchor;
        }
        long periodMillis = period.toMillis();
        long k = Duration.between(anchor, now).toMillis() / periodMillis;
        return anchor.plusMillis(k * periodMillis);
    }

    /**
     * Brings the ledger to the period {@code now} lies in: the first time (no period start yet) it starts at
     * {@code anchor}'s period; past the current period's end, {@code spent} starts again from 0.
     *
     * @return whether anything changed
     */
    public boolean roll(Instant anchor, Instant now) {
        Instant current = periodStartAt(anchor, period, now);
        if (periodStart == null) {
            periodStart = current;
            return true;
        }
        if (current.isAfter(periodStart)) {
            periodStart = current;
            spent = BigInteger.ZERO;
            return true;
        }
        return false;
    }

    /** Reserves {@code x} unless it is over {@code maxPerCharge} (may be null) or more than what remains. */
    public Decision reserve(BigInteger x, BigInteger maxPerCharge) {
        if (x.signum() <= 0) {
            throw new IllegalArgumentException("a charge is positive");
        }
        if (maxPerCharge != null && x.compareTo(maxPerCharge) > 0) {
            return Decision.OVER_LIMIT;
        }
        if (spent.add(reserved).add(x).compareTo(amount) > 0) {
            return Decision.EXCEEDED;
        }
        reserved = reserved.add(x);
        return Decision.RESERVED;
    }

    /** A reserved charge was paid: its amount moves from reserved to spent in the current period. */
    public void settle(BigInteger x) {
        requireReserved(x);
        reserved = reserved.subtract(x);
        spent = spent.add(x);
    }

    /** A reserved charge will not be paid (its invoice expired, or was never created): the amount is free again. */
    public void release(BigInteger x) {
        requireReserved(x);
        reserved = reserved.subtract(x);
    }

    private void requireReserved(BigInteger x) {
        if (x.signum() <= 0 || x.compareTo(reserved) > 0) {
            throw new IllegalStateException("budget ledger: " + x + " is not reserved (reserved " + reserved + ")");
        }
    }

    public BigInteger remaining() {
        return amount.subtract(spent).subtract(reserved);
    }

    /** What remains as seen at {@code now} without writing anything: past the period's end spent counts as 0. */
    public BigInteger remainingAt(Instant now) {
        if (period != null && periodStart != null && !now.isBefore(periodStart.plus(period))) {
            return amount.subtract(reserved);
        }
        return remaining();
    }

    public BigInteger amount() {
        return amount;
    }

    public Duration period() {
        return period;
    }

    public Instant periodStart() {
        return periodStart;
    }

    /** The end of the current period, or {@code null} without a period (or before the first charge). */
    public Instant periodEnd() {
        return period == null || periodStart == null ? null : periodStart.plus(period);
    }

    public BigInteger reserved() {
        return reserved;
    }

    public BigInteger spent() {
        return spent;
    }
}
