package dev.agentpay.settlement;

import static dev.agentpay.settlement.Deposits.deposit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.lease.LeaseLostException;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.ScanResult;
import dev.agentpay.settlement.watcher.domain.Transfer;
import dev.agentpay.settlement.watcher.service.ChainLeases;
import dev.agentpay.settlement.watcher.service.WatcherLedger;
import dev.agentpay.settlement.sweep.service.Sweeper;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several watcher instances (README, "Several instances"): while another instance holds a chain's lease,
 * this one publishes, checkpoints and sweeps nothing on that chain; a scan step or a sweep record carrying
 * a stale fencing token (a frozen instance waking after its chain moved) is refused in its own
 * transaction; when the lease comes free, this instance takes the chain with a new token and publishes
 * what was paid meanwhile exactly once.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class ChainFencingTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String CHAIN = "skale";

    @Inject
    WatcherLedger ledger;

    @Inject
    ChainLeases leases;

    @Inject
    Sweeper sweeper;

    @Inject
    Pool pool;

    TransferEvents events;

    @BeforeEach
    void consume() {
        Deposits.registerOnce(ledger);
        events = new TransferEvents(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void close() {
        pool.query("update platform_lease set expires_at = now() where holder = 'another-instance'").execute().await().atMost(WAIT);
        events.close();
    }

    private long checkpoint() {
        return pool.preparedQuery("select block_number from chain_checkpoint where chain = $1").execute(Tuple.of(CHAIN))
                .await().atMost(WAIT).iterator().next().getLong(0);
    }

    private long detected(String txHash) {
        return pool.preparedQuery("select count(*) from detected_transfer where tx_hash = $1").execute(Tuple.of(txHash))
                .await().atMost(WAIT).iterator().next().getLong(0);
    }

    @Test
    void aChainHeldByAnotherInstanceIsLeftAloneAndAStaleTokenIsRefused() {
        await("this instance holds " + CHAIN).atMost(WAIT).until(() -> leases.token(CHAIN) >= 0);
        long token = leases.token(CHAIN);

        // another instance takes the chain over
        pool.preparedQuery("update platform_lease set holder = 'another-instance', token = token + 1,"
                        + " expires_at = now() + interval '1 hour' where name = $1")
                .execute(Tuple.of(ChainLeases.leaseName(CHAIN))).await().atMost(WAIT);
        await("this instance let the chain go").atMost(WAIT).until(() -> leases.token(CHAIN) < 0);
        long frozenAt = checkpoint();

        EvmRpc rpc = EvmWatcherTest.rpc(CHAIN);
        String tx = EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, EvmWatcherTest.usdc(CHAIN).address(), deposit(CHAIN), 4_242));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.noneDuring(e -> e.txHash().equals(tx), Duration.ofSeconds(2));
        assertThat(checkpoint()).as("the checkpoint stays where the other instance left it").isEqualTo(frozenAt);

        // a frozen tick of this instance wakes with its old token and commits a step: refused, nothing written
        Transfer t = new Transfer(CHAIN, tx, 0, frozenAt + 1, "0x" + "00".repeat(32), EvmWatcherTest.PAYER, deposit(CHAIN),
                BigInteger.valueOf(4_242), EvmWatcherTest.usdc(CHAIN).address(), null);
        ScanResult step = new ScanResult(CHAIN, List.of(t), List.of(), new Checkpoint(frozenAt + 1, "0x" + "00".repeat(32), null), List.of(), -1);
        assertThatThrownBy(() -> ledger.commit(new ChainLeases.Fence(CHAIN, token), step, "evm-detector", 10).await().atMost(WAIT))
                .isInstanceOf(LeaseLostException.class);
        assertThat(detected(tx)).isZero();
        assertThat(checkpoint()).isEqualTo(frozenAt);
        // and a sweep round leaves the chain to its holder; a sweep record under a stale token is refused
        assertThat(sweeper.sweep(Chain.SKALE).await().atMost(WAIT).outcome()).isEqualTo("not_this_instance");
        assertThatThrownBy(() -> leases.sweep(CHAIN, c -> c.query("select 1").execute()).await().atMost(WAIT))
                .isInstanceOf(LeaseLostException.class);

        // the other instance goes away: this one takes the chain with a new token and publishes the payment once
        pool.query("update platform_lease set expires_at = now() where holder = 'another-instance'").execute().await().atMost(WAIT);
        await("this instance took the chain back").atMost(WAIT).until(() -> leases.token(CHAIN) == token + 2);
        events.await(e -> e.txHash().equals(tx), 1, WAIT);
        events.countDuring(e -> e.txHash().equals(tx), 1, Duration.ofSeconds(1));
        assertThat(detected(tx)).isEqualTo(1);
    }
}
