package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.watcher.service.WatcherLedger;
import dev.agentpay.settlement.watcher.service.EvmScanner;
import dev.agentpay.settlement.watcher.service.WatcherSupervisor;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The watcher's cost per block with many open deposit addresses (bench/RESULTS.md; not part of the test
 * run: {@code -Dtest=WatcherBench}). 10,000 addresses are registered on skale, blocks carrying
 * {@code bench.watcher.transfers} USDC transfers each (one in ten to a registered address) are mined,
 * and the scanner's tick is timed: a catch-up over many blocks and steady one-block ticks.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class WatcherBench {

    static final int ADDRESSES = Integer.getInteger("bench.watcher.addresses", 10_000);
    static final int PER_BLOCK = Integer.getInteger("bench.watcher.transfers", 50);

    @Inject
    WatcherSupervisor supervisor;

    @Inject
    io.vertx.mutiny.core.Vertx vertx;

    @Inject
    ChainTable chains;

    @Inject
    dev.agentpay.settlement.watcher.service.ChainLeases leases;

    @Inject
    WatcherLedger ledger;


    @Inject
    SettlementConfig config;

    @Inject
    Pool pool;

    @Test
    void costPerBlockWithManyOpenAddresses() {
        supervisor.stop(Chain.SKALE).await().atMost(Duration.ofSeconds(60));
        EvmRpc rpc = EvmWatcherTest.rpc("skale");
        String usdc = EvmWatcherTest.usdc("skale").address();
        pool.preparedQuery("insert into deposit_address (chain, address, invoice_id, invoice_created, backfill_from, registered_at)"
                        + " select 'skale', '0x' || substr(md5(g::text || 'bench') || md5(g::text), 1, 40), gen_random_uuid(), now(), null, now()"
                        + " from generate_series(1, $1) g on conflict do nothing")
                .execute(Tuple.of(ADDRESSES)).await().atMost(Duration.ofMinutes(2));
        List<String> registered = new ArrayList<>();
        pool.preparedQuery("select address from deposit_address where chain = 'skale' order by seq limit 100").execute()
                .await().atMost(Duration.ofSeconds(30)).forEach(r -> registered.add(r.getString(0)));
        UsdcInstaller.mint(rpc, usdc, AnvilNode.DEV_ADDRESS_0, BigInteger.valueOf(1_000_000_000_000L));

        try (EvmClient client = new EvmClient(vertx, "skale", chains.get(Chain.SKALE).rpcUrl().orElseThrow(), Duration.ofSeconds(30))) {
            EvmScanner scanner = new EvmScanner(chains.get(Chain.SKALE), client, ledger, config);
            long t0 = System.nanoTime();
            scanner.tick(leases.token("skale")).await().atMost(Duration.ofMinutes(2)); // loads the addresses, catches up
            double load = (System.nanoTime() - t0) / 1e6;
            assertThat(scanner.watchedAddresses()).isGreaterThanOrEqualTo(ADDRESSES);

            // catch-up: 100 blocks of PER_BLOCK transfers in one tick
            int blocks = 100;
            for (int b = 0; b < blocks; b++) {
                block(rpc, usdc, registered, b);
            }
            rpc.mine(ChainsTestResource.CONFIRMATIONS);
            t0 = System.nanoTime();
            int published = scanner.tick(leases.token("skale")).await().atMost(Duration.ofMinutes(2));
            double catchUp = (System.nanoTime() - t0) / 1e6;
            assertThat(published).isEqualTo(blocks * (PER_BLOCK / 10));

            // steady state: one new block per tick
            List<Double> ticks = new ArrayList<>();
            for (int b = 0; b < 40; b++) {
                block(rpc, usdc, registered, blocks + b);
                t0 = System.nanoTime();
                scanner.tick(leases.token("skale")).await().atMost(Duration.ofMinutes(2));
                ticks.add((System.nanoTime() - t0) / 1e6);
            }
            Collections.sort(ticks);
            System.out.printf(Locale.ROOT, "watcher bench: %d addresses (first tick incl. loading them %.0f ms); %d transfers/block (%d ours);"
                            + " catch-up %d blocks in one tick %.0f ms = %.2f ms/block; one-block tick p50 %.1f ms, p90 %.1f ms, max %.1f ms%n",
                    scanner.watchedAddresses(), load, PER_BLOCK, PER_BLOCK / 10, blocks, catchUp, catchUp / blocks,
                    ticks.get(ticks.size() / 2), ticks.get((int) (ticks.size() * 0.9)), ticks.get(ticks.size() - 1));
        } finally {
            supervisor.start(Chain.SKALE);
        }
    }

    /** One block with PER_BLOCK USDC transfers, one in ten to a registered deposit address. */
    private static void block(EvmRpc rpc, String usdc, List<String> registered, int n) {
        rpc.call("evm_setAutomine", false);
        try {
            for (int i = 0; i < PER_BLOCK; i++) {
                String to = i % 10 == 0 ? registered.get((n * PER_BLOCK + i) % registered.size())
                        : "0x" + String.format(Locale.ROOT, "%040x", 0x1000000L + n * PER_BLOCK + i);
                var params = new java.util.LinkedHashMap<String, String>();
                params.put("from", AnvilNode.DEV_ADDRESS_0);
                params.put("to", usdc);
                params.put("data", "0xa9059cbb" + EvmRpc.word(to) + EvmRpc.word(BigInteger.valueOf(1 + i)));
                rpc.call("eth_sendTransaction", params);
            }
            rpc.mine(1);
        } finally {
            rpc.call("evm_setAutomine", true);
        }
    }
}
