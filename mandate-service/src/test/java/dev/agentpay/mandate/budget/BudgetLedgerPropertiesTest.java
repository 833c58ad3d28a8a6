package dev.agentpay.mandate.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.mandate.budget.domain.BudgetLedger;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The budget's rules ({@link BudgetLedger}) over random interleavings of create (reserve), settle, expire (release)
 * and the passing of time across period boundaries. mandate-service applies each of these operations to the ledger
 * while it holds the budget row locked, so any concurrent execution is one of these sequences; the invariant must
 * hold after every step: {@code 0 <= reserved}, {@code 0 <= spent}, {@code spent + reserved <= amount}, reserved is
 * exactly the sum of the open charges, spent exactly the sum of the charges settled in the current period, and no
 * period ever has more settled in it than the amount.
 */
class BudgetLedgerPropertiesTest {

    /** One step: {@code kind} 0 create, 1 settle, 2 expire, 3 time passes; {@code n} the amount, charge pick or minutes. */
    record Step(int kind, int n) {
    }

    enum Status { OPEN, SETTLED, RELEASED }

    static final class ChargeModel {
        final BigInteger amount;
        Status status = Status.OPEN;
        Instant settledIn;

        ChargeModel(BigInteger amount) {
            this.amount = amount;
        }
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step = Combinators.combine(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 400))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(200);
    }

    @Property(tries = 400)
    void neverOverspentAndExactlyAccounted(@ForAll("steps") List<Step> steps,
            @ForAll @IntRange(min = 1, max = 1_000) int amountCents,
            @ForAll @IntRange(min = 0, max = 3) int periodChoice,
            @ForAll @IntRange(min = 0, max = 1_000) int maxCents) {
        BigInteger amount = BigInteger.valueOf(amountCents).multiply(BigInteger.valueOf(10_000));
        Duration period = switch (periodChoice) {
            case 0 -> null;
            case 1 -> Duration.ofHours(1);
            case 2 -> Duration.ofDays(1);
            default -> Duration.ofMinutes(90);
        };
        BigInteger max = maxCents == 0 ? null : BigInteger.valueOf(maxCents).multiply(BigInteger.valueOf(10_000));
        Instant anchor = Instant.parse("2026-11-26T10:00:00Z");
        Instant now = anchor;
        BudgetLedger ledger = new BudgetLedger(amount, period, null, BigInteger.ZERO, BigInteger.ZERO);
        List<ChargeModel> charges = new ArrayList<>();
        Map<Instant, BigInteger> settledPerPeriod = new HashMap<>();

        for (Step s : steps) {
            if (s.kind() == 3) {
                now = now.plus(Duration.ofMinutes(s.n()));
            }
            ledger.roll(anchor, now);
            assertThat(ledger.periodStart()).isEqualTo(BudgetLedger.periodStartAt(anchor, period, now));
            switch (s.kind()) {
                case 0 -> {
                    BigInteger x = BigInteger.valueOf(s.n()).multiply(BigInteger.valueOf(1_000));
                    BigInteger before = ledger.remaining();
                    BudgetLedger.Decision d = ledger.reserve(x, max);
                    if (max != null && x.compareTo(max) > 0) {
                        assertThat(d).isEqualTo(BudgetLedger.Decision.OVER_LIMIT);
                    } else if (x.compareTo(before) > 0) {
                        assertThat(d).isEqualTo(BudgetLedger.Decision.EXCEEDED);
                    } else {
                        assertThat(d).isEqualTo(BudgetLedger.Decision.RESERVED);
                        charges.add(new ChargeModel(x));
                    }
                }
                case 1, 2 -> {
                    List<ChargeModel> open = charges.stream().filter(c -> c.status == Status.OPEN).toList();
                    if (!open.isEmpty()) {
                        ChargeModel c = open.get(s.n() % open.size());
                        if (s.kind() == 1) {
                            ledger.settle(c.amount);
                            c.status = Status.SETTLED;
                            c.settledIn = ledger.periodStart();
                            settledPerPeriod.merge(c.settledIn, c.amount, BigInteger::add);
                        } else {
                            ledger.release(c.amount);
                            c.status = Status.RELEASED;
                        }
                    }
                }
                default -> {
                }
            }
            BigInteger openSum = charges.stream().filter(c -> c.status == Status.OPEN).map(c -> c.amount)
                    .reduce(BigInteger.ZERO, BigInteger::add);
            Instant current = ledger.periodStart();
            BigInteger settledNow = charges.stream().filter(c -> c.status == Status.SETTLED && c.settledIn.equals(current))
                    .map(c -> c.amount).reduce(BigInteger.ZERO, BigInteger::add);
            assertThat(ledger.reserved()).isEqualTo(openSum).isNotNegative();
            assertThat(ledger.spent()).isEqualTo(settledNow).isNotNegative();
            assertThat(ledger.spent().add(ledger.reserved())).isLessThanOrEqualTo(amount);
            assertThat(ledger.remaining()).isEqualTo(amount.subtract(ledger.spent()).subtract(ledger.reserved()));
            settledPerPeriod.values().forEach(v -> assertThat(v).isLessThanOrEqualTo(amount));
            if (period == null) {
                assertThat(ledger.periodStart()).isEqualTo(anchor);
            }
        }
    }

    @Property(tries = 100)
    void aReleasedOrRolledBudgetCanBeChargedAgain(@ForAll @IntRange(min = 1, max = 100) int n,
            @ForAll @Size(min = 1, max = 5) List<@IntRange(min = 61, max = 300) Integer> waits) {
        BigInteger amount = BigInteger.valueOf(n);
        Instant anchor = Instant.parse("2026-11-26T10:00:00Z");
        BudgetLedger ledger = new BudgetLedger(amount, Duration.ofHours(1), null, BigInteger.ZERO, BigInteger.ZERO);
        ledger.roll(anchor, anchor);
        Instant now = anchor;
        for (int wait : waits) {
            assertThat(ledger.reserve(amount, null)).isEqualTo(BudgetLedger.Decision.RESERVED);
            assertThat(ledger.reserve(BigInteger.ONE, null)).isEqualTo(BudgetLedger.Decision.EXCEEDED);
            ledger.settle(amount);
            now = now.plus(Duration.ofMinutes(wait));
            assertThat(ledger.roll(anchor, now)).isTrue();
            assertThat(ledger.remaining()).isEqualTo(amount);
        }
        assertThat(ledger.reserve(amount, null)).isEqualTo(BudgetLedger.Decision.RESERVED);
        ledger.release(amount);
        assertThat(ledger.remaining()).isEqualTo(amount);
    }
}
