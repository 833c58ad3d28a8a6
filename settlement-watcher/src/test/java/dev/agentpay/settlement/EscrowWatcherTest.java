package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Terms;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MandateEscrow side of the watcher against real anvil chains: contract events published on escrow-events at
 * the chain's confirmation depth with the escrow's totals, rolled back by a reorg; escrow-commands executed once per
 * command id (a redelivered command, and another command with a used ref, pay nothing more), a refusal by the
 * contract published as escrow.command_failed naming the contract's error.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class EscrowWatcherTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final BigInteger AMOUNT = BigInteger.valueOf(5_000_000);

    ConsumerTask<String, String> records;

    @BeforeEach
    void consume() {
        records = TestKafka.collectAt(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), Topics.ESCROW_EVENTS);
    }

    @AfterEach
    void close() {
        records.close();
    }

    static String config(String key) {
        return ConfigProvider.getConfig().getValue(key, String.class);
    }

    List<EscrowEvent> matching(Predicate<EscrowEvent> p) {
        return records.stream().map(r -> {
            EscrowEvent e = EventCodec.decode(r.value(), EscrowEvent.class);
            assertThat(r.key()).isEqualTo(e.mandateHash());
            return e;
        }).filter(p).toList();
    }

    List<EscrowEvent> await(Predicate<EscrowEvent> p, int count) {
        return Awaitility.await(count + " escrow events").atMost(WAIT).until(() -> matching(p), m -> m.size() >= count);
    }

    void countDuring(Predicate<EscrowEvent> p, int count, Duration period) {
        Awaitility.await(count + " such escrow events, no more").during(period).atMost(period.plusSeconds(5))
                .until(() -> matching(p).size() == count);
    }

    /** An escrow funded by approve + fund on {@code chain} from an unlocked account; returns its id. */
    static String fund(EvmRpc rpc, String chain, String funder, Terms t) {
        String usdc = UsdcInstaller.canonical(chain).orElseThrow().address();
        String escrow = config("chains." + chain + ".escrow-address");
        UsdcInstaller.mint(rpc, usdc, funder, t.amount());
        rpc.transact(funder, usdc, MandateEscrowAbi.approve(escrow, t.amount()));
        rpc.transact(funder, escrow, MandateEscrowAbi.fund(t));
        return MandateEscrowAbi.escrowId(t.mandateHash(), funder);
    }

    static long now(EvmRpc rpc) {
        return Long.decode(rpc.call("eth_getBlockByNumber", "latest", false).get("timestamp").asText());
    }

    static void command(String type, String chain, String commandId, String escrowId, String mandateHash, String amount, String ref,
            String toCounterparty, String toProposer) {
        EscrowCommand c = new EscrowCommand(EventHeader.of(type, mandateHash, null, Instant.now(), EscrowCommand.SCHEMA_VERSION),
                commandId, chain, escrowId, mandateHash, amount, ref, ref == null ? null : "chg_test", toCounterparty, toProposer);
        TestKafka.send(config("kafka.bootstrap.servers"), TestKafka.record(c));
    }

    @Test
    void fundedAndReleasedEventsArePublishedAtDepthAndACommandPaysOnceWhateverItsRedeliveries() {
        EvmRpc rpc = EvmWatcherTest.rpc("base");
        var accounts = rpc.call("eth_accounts");
        String funder = accounts.get(7).asText();
        String counterparty = accounts.get(8).asText();
        Terms t = new Terms(EscrowChain.randomHash(), counterparty, AMOUNT, 0, 0, now(rpc) + 3600);
        String id = fund(rpc, "base", funder, t);

        // one confirmation short: nothing yet
        rpc.mine(ChainsTestResource.CONFIRMATIONS - 2);
        countDuring(e -> id.equals(e.escrowId()), 0, Duration.ofSeconds(1));
        rpc.mine(1);
        EscrowEvent funded = await(e -> id.equals(e.escrowId()), 1).get(0);
        assertThat(funded.type()).isEqualTo(EscrowEvent.FUNDED);
        assertThat(funded.chain()).isEqualTo("base");
        assertThat(funded.contract()).isEqualToIgnoringCase(config("chains.base.escrow-address"));
        assertThat(funded.mandateHash()).isEqualTo(t.mandateHash());
        assertThat(funded.aggregateId()).isEqualTo(t.mandateHash());
        assertThat(funded.funder()).isEqualToIgnoringCase(funder);
        assertThat(funded.counterparty()).isEqualToIgnoringCase(counterparty);
        assertThat(funded.amount()).isEqualTo(AMOUNT.toString());
        assertThat(funded.expiresAt()).isEqualTo(t.expiresAt());
        assertThat(funded.streamStart()).isZero();
        assertThat(funded.totals()).isEqualTo(new EscrowEvent.Totals(AMOUNT.toString(), "0", "0", "0", AMOUNT.toString()));
        assertThat(funded.state()).isEqualTo("active");

        // a release, delivered twice, and another command reusing its ref: paid once
        String ref = MandateEscrowAbi.ref("chg_" + UUID.randomUUID());
        String commandId = UUID.randomUUID().toString();
        command(EscrowCommand.RELEASE, "base", commandId, id, t.mandateHash(), "2000000", ref, null, null);
        command(EscrowCommand.RELEASE, "base", commandId, id, t.mandateHash(), "2000000", ref, null, null);
        command(EscrowCommand.RELEASE, "base", UUID.randomUUID().toString(), id, t.mandateHash(), "2000000", ref, null, null);
        Awaitility.await().atMost(WAIT).untilAsserted(() -> {
            rpc.mine(1);
            assertThat(matching(e -> id.equals(e.escrowId()) && EscrowEvent.RELEASED.equals(e.type()))).hasSize(1);
        });
        EscrowEvent released = matching(e -> id.equals(e.escrowId()) && EscrowEvent.RELEASED.equals(e.type())).get(0);
        assertThat(released.ref()).isEqualTo(ref);
        assertThat(released.amount()).isEqualTo("2000000");
        assertThat(released.counterparty()).isEqualToIgnoringCase(counterparty);
        assertThat(released.totals().held()).isEqualTo("3000000");
        assertThat(UsdcInstaller.balanceOf(rpc, UsdcInstaller.canonical("base").orElseThrow().address(), counterparty))
                .isGreaterThanOrEqualTo(BigInteger.valueOf(2_000_000));

        // a resolve of an escrow that is not frozen: refused by the contract, for good, named
        String bad = UUID.randomUUID().toString();
        command(EscrowCommand.RESOLVE, "base", bad, id, t.mandateHash(), null, null, "3000000", "0");
        EscrowEvent failed = await(e -> bad.equals(e.commandId()), 1).get(0);
        assertThat(failed.type()).isEqualTo(EscrowEvent.COMMAND_FAILED);
        assertThat(failed.reason()).startsWith("WrongState");
        assertThat(failed.escrowId()).isEqualTo(id);

        // freeze, then a resolve summing to what is held
        command(EscrowCommand.FREEZE, "base", UUID.randomUUID().toString(), id, t.mandateHash(), null, null, null, null);
        command(EscrowCommand.RESOLVE, "base", UUID.randomUUID().toString(), id, t.mandateHash(), null, null, "1000000", "2000000");
        Awaitility.await().atMost(WAIT).untilAsserted(() -> {
            rpc.mine(1);
            assertThat(matching(e -> id.equals(e.escrowId()) && EscrowEvent.RESOLVED.equals(e.type()))).hasSize(1);
        });
        EscrowEvent resolved = matching(e -> id.equals(e.escrowId()) && EscrowEvent.RESOLVED.equals(e.type())).get(0);
        assertThat(resolved.toCounterparty()).isEqualTo("1000000");
        assertThat(resolved.toProposer()).isEqualTo("2000000");
        assertThat(resolved.state()).isEqualTo("resolved");
        assertThat(resolved.totals()).isEqualTo(new EscrowEvent.Totals(AMOUNT.toString(), "3000000", "0", "2000000", "0"));
        assertThat(matching(e -> id.equals(e.escrowId()) && EscrowEvent.FROZEN.equals(e.type()))).hasSize(1);
        countDuring(e -> id.equals(e.escrowId()) && EscrowEvent.RELEASED.equals(e.type()), 1, Duration.ofMillis(500));
    }

    @Test
    void aReorgThatDropsTheFundingRollsItBackAndItIsPublishedAgainWhenMinedAgain() {
        EvmRpc rpc = EvmWatcherTest.rpc("arbitrum");
        var accounts = rpc.call("eth_accounts");
        String funder = accounts.get(7).asText();
        Terms t = new Terms(EscrowChain.randomHash(), accounts.get(8).asText(), AMOUNT, 0, 0, now(rpc) + 3600);
        String snapshot = rpc.snapshot();
        String id = fund(rpc, "arbitrum", funder, t);
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        EscrowEvent funded = await(e -> id.equals(e.escrowId()), 1).get(0);

        assertThat(rpc.revert(snapshot)).isTrue();
        rpc.mine(ChainsTestResource.CONFIRMATIONS + 3); // a longer chain without the funding
        List<EscrowEvent> all = await(e -> id.equals(e.escrowId()), 2);
        assertThat(all).extracting(EscrowEvent::type).containsExactly(EscrowEvent.FUNDED, EscrowEvent.ROLLED_BACK);
        assertThat(all.get(1).rolledBackEventId()).isEqualTo(funded.eventId().toString());
        assertThat(all.get(1).aggregateId()).isEqualTo(t.mandateHash());

        // funded again on the new chain: published again, under a new event id
        fund(rpc, "arbitrum", funder, t);
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        List<EscrowEvent> again = await(e -> id.equals(e.escrowId()), 3);
        assertThat(again.get(2).type()).isEqualTo(EscrowEvent.FUNDED);
        assertThat(again.get(2).eventId()).isNotEqualTo(funded.eventId());
    }
}
