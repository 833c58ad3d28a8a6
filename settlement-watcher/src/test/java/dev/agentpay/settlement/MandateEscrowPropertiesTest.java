package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi.State;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Terms;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * {@code MandateEscrow} over random sequences of every operation (release with fresh and replayed refs, withdraw,
 * freeze, resolve with right and wrong splits, refund, time passing, and strangers trying every money path) on a
 * real anvil chain. After every step, whether it was accepted or refused: {@code held = funded - released -
 * withdrawn - refunded >= 0}; the counterparty has received exactly released + withdrawn, the funder exactly its
 * refunds; nobody else (the operator, a stranger) has received a unit; totals never go down; a replayed ref and a
 * stranger are always refused; nothing leaves a frozen escrow but by resolve (or after the grace).
 */
class MandateEscrowPropertiesTest {

    static final long GRACE = 300;
    static EscrowChain chain;

    /** kind: 0 release, 1 replay a used ref, 2 withdraw, 3 freeze, 4 resolve, 5 resolve with a wrong sum, 6 refund,
     *  7 time passes, 8 a stranger tries a money path; {@code n} sizes the amount, split or time. */
    record Step(int kind, int n) {
    }

    @BeforeContainer
    static void deploy() {
        chain = EscrowChain.start(GRACE);
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Combinators.combine(Arbitraries.integers().between(0, 8), Arbitraries.integers().between(0, 1000))
                .as(Step::new).list().ofMinSize(1).ofMaxSize(14);
    }

    @Property(tries = 25)
    void heldIsAlwaysFundedLessWhatLeftAndOnlyThePartiesArePaid(@ForAll("steps") List<Step> steps,
            @ForAll @IntRange(min = 1, max = 1_000_000) int amountUnits, @ForAll boolean streamed) {
        String funder = chain.account();
        String counterparty = chain.account();
        String stranger = chain.account();
        BigInteger amount = BigInteger.valueOf(amountUnits).multiply(BigInteger.valueOf(100));
        chain.mint(funder, amount);
        long now = chain.now();
        Terms t = streamed ? new Terms(EscrowChain.randomHash(), counterparty, amount, now + 1, now + 600, now + 900)
                : new Terms(EscrowChain.randomHash(), counterparty, amount, 0, 0, now + 900);
        String id = chain.fundByApprove(funder, t);
        BigInteger operatorBefore = chain.balance(chain.operator);
        List<String> usedRefs = new ArrayList<>();
        MandateEscrowAbi.Totals last = chain.totals(id);
        check(id, t, funder, counterparty, stranger, operatorBefore, last);

        for (Step s : steps) {
            MandateEscrowAbi.Totals before = chain.totals(id);
            switch (s.kind()) {
                case 0 -> {
                    String ref = MandateEscrowAbi.ref("chg_p_" + System.nanoTime());
                    BigInteger a = share(before.held().max(BigInteger.ONE), s.n()).max(BigInteger.ONE);
                    if (tryTx(chain.operator, MandateEscrowAbi.release(id, a, ref))) {
                        usedRefs.add(ref);
                        assertThat(before.state()).isEqualTo(State.ACTIVE);
                        assertThat(chain.totals(id).released()).isEqualTo(before.released().add(a));
                    }
                }
                case 1 -> {
                    if (!usedRefs.isEmpty()) {
                        String ref = usedRefs.get(s.n() % usedRefs.size());
                        assertThat(tryTx(chain.operator, MandateEscrowAbi.release(id, BigInteger.ONE, ref))).as("replayed ref").isFalse();
                    }
                }
                case 2 -> tryTx(counterparty, MandateEscrowAbi.withdraw(id));
                case 3 -> tryTx(chain.operator, MandateEscrowAbi.freeze(id));
                case 4 -> {
                    BigInteger toC = share(before.held(), s.n());
                    if (tryTx(chain.operator, MandateEscrowAbi.resolve(id, toC, before.held().subtract(toC)))) {
                        assertThat(before.state()).isEqualTo(State.FROZEN);
                    }
                }
                case 5 -> assertThat(tryTx(chain.operator, MandateEscrowAbi.resolve(id, before.held(), BigInteger.ONE)))
                        .as("split over held").isFalse();
                case 6 -> {
                    if (tryTx(funder, MandateEscrowAbi.refund(id))) {
                        assertThat(before.state()).isIn(State.ACTIVE, State.FROZEN);
                    }
                }
                case 7 -> chain.warp(s.n());
                default -> {
                    String ref = MandateEscrowAbi.ref("chg_x_" + System.nanoTime());
                    List<String> paths = List.of(MandateEscrowAbi.release(id, BigInteger.ONE, ref), MandateEscrowAbi.withdraw(id),
                            MandateEscrowAbi.refund(id), MandateEscrowAbi.freeze(id),
                            MandateEscrowAbi.resolve(id, BigInteger.ZERO, before.held()));
                    assertThat(tryTx(stranger, paths.get(s.n() % paths.size()))).as("stranger").isFalse();
                }
            }
            MandateEscrowAbi.Totals now2 = chain.totals(id);
            if (before.state() == State.FROZEN && now2.state() == State.FROZEN && chain.now() < t.expiresAt() + GRACE) {
                assertThat(now2.held()).as("nothing leaves a frozen escrow but by resolve").isEqualTo(before.held());
            }
            assertThat(now2.released()).isGreaterThanOrEqualTo(last.released());
            assertThat(now2.withdrawn()).isGreaterThanOrEqualTo(last.withdrawn());
            assertThat(now2.refunded()).isGreaterThanOrEqualTo(last.refunded());
            check(id, t, funder, counterparty, stranger, operatorBefore, now2);
            last = now2;
        }
    }

    private static void check(String id, Terms t, String funder, String counterparty, String stranger, BigInteger operatorBefore,
            MandateEscrowAbi.Totals tot) {
        assertThat(tot.funded()).isEqualTo(t.amount());
        assertThat(tot.held()).isEqualTo(tot.funded().subtract(tot.released()).subtract(tot.withdrawn()).subtract(tot.refunded()));
        assertThat(tot.held().signum()).isGreaterThanOrEqualTo(0);
        assertThat(chain.balance(counterparty)).isEqualTo(tot.released().add(tot.withdrawn()));
        assertThat(chain.balance(funder)).isEqualTo(tot.refunded());
        assertThat(chain.balance(stranger)).isZero();
        assertThat(chain.balance(chain.operator)).isEqualTo(operatorBefore);
        assertThat(chain.balance(chain.escrow)).isGreaterThanOrEqualTo(tot.held());
    }

    /** {@code n/1000} of {@code x}. */
    private static BigInteger share(BigInteger x, int n) {
        return x.multiply(BigInteger.valueOf(n)).divide(BigInteger.valueOf(1000));
    }

    /** Sends; true when mined successfully, false when the chain refused it. */
    private static boolean tryTx(String from, String data) {
        try {
            chain.rpc.transact(from, chain.escrow, data);
            return true;
        } catch (IllegalStateException refused) {
            return false;
        }
    }
}
