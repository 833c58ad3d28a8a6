package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.settlement.sweep.client.SweepChainClient;
import dev.agentpay.settlement.sweep.repository.SweepRepository;
import dev.agentpay.settlement.sweep.service.Sweeper;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * Sweeping on a real anvil chain: invoices' deposit addresses (real CREATE2 addresses of the deployed
 * factory) paid by plain transfers, detected by the watcher, swept in one batch to the seller wallet,
 * whose balance grows by exactly what they received; sweeping again moves nothing, and a payment after
 * a sweep is swept by the next one. The ledger accounts for every unit.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class SweepTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Sweeper sweeper;

    @Inject
    SweepRepository ledger;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @Inject
    ChainTable chains;

    @Inject
    dev.agentpay.settlement.watcher.service.WatcherLedger watcher;

    TransferEvents events;

    @BeforeEach
    void consume() {
        events = new TransferEvents(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void close() {
        events.close();
    }

    static String depositAddress(EvmRpc rpc, String factory, UUID invoiceId) {
        String word = rpc.ethCall(factory, Hash.sha3String("depositAddress(bytes32)").substring(0, 10)
                + Numeric.toHexStringNoPrefix(dev.agentpay.commons.chains.Create2.invoiceSalt(invoiceId)));
        return "0x" + word.substring(word.length() - 40);
    }

    @Test
    void settledInvoicesUsdcEndsUpInTheSellerWalletAndEveryUnitIsAccounted() {
        String chain = "polygon";
        EvmRpc rpc = EvmWatcherTest.rpc(chain);
        String usdc = EvmWatcherTest.usdc(chain).address();
        String factory = chains.get(Chain.POLYGON).depositFactoryAddress().orElseThrow();
        long[] amounts = {1_000_000, 2_500_000, 750_000};
        List<String> addresses = new ArrayList<>();
        List<String> txs = new ArrayList<>();
        for (long amount : amounts) {
            UUID id = UUID.randomUUID();
            String address = depositAddress(rpc, factory, id);
            Deposits.announce(chain, id, address);
            Deposits.awaitRegistered(watcher, chain, address);
            addresses.add(address);
            // the first one is paid in two parts
            if (addresses.size() == 1) {
                txs.add(EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, usdc, address, amount - 400_000)));
                txs.add(EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, usdc, address, 400_000)));
            } else {
                txs.add(EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, usdc, address, amount)));
            }
        }
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> txs.contains(e.txHash()), txs.size(), WAIT);
        long total = java.util.Arrays.stream(amounts).sum();
        BigInteger before = UsdcInstaller.balanceOf(rpc, usdc, ChainsTestResource.SELLER);

        Sweeper.Round round = sweepUntilIdle();
        BigInteger after = UsdcInstaller.balanceOf(rpc, usdc, ChainsTestResource.SELLER);
        assertThat(after.subtract(before)).isEqualTo(BigInteger.valueOf(total));
        for (String a : addresses) {
            assertThat(UsdcInstaller.balanceOf(rpc, usdc, a)).isZero();
            assertThat(rpc.getCode(a).length()).isGreaterThan(2); // the forwarder now lives there
        }
        assertThat(round.outcome()).isEqualTo("nothing_owed");
        assertThat(owedOf(addresses)).isEmpty();

        // a payment after the sweep (forwarder already deployed) is swept by the next round, and only it
        String late = EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, usdc, addresses.get(1), 123));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(late), 1, WAIT);
        assertThat(owedOf(addresses)).extracting(SweepRepository.Owed::amount).containsExactly(BigInteger.valueOf(123));
        sweepUntilIdle();
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, ChainsTestResource.SELLER).subtract(before)).isEqualTo(BigInteger.valueOf(total + 123));
        assertThat(owedOf(addresses)).isEmpty();

        // the operator's view: confirmed sweeps with their transactions; never for the admin-less
        RestAssured.given().get("/admin/sweeps").then().statusCode(401);
        var body = RestAssured.given().header("x-admin-key", ConfigProvider.getConfig().getValue("platform.auth.admin-key", String.class))
                .get("/admin/sweeps").then().statusCode(200).extract().jsonPath();
        assertThat(body.getList("data.sweeps.state", String.class)).contains("CONFIRMED");
        assertThat(body.getList("data.chains.chain", String.class)).contains(chain);
    }

    /**
     * A reorg takes a confirmed sweep out of the chain (its money is back at the deposit address): the
     * next round notices the receipt is gone, reopens the sweep (its amount out of the ledger) and
     * broadcasts the same bytes again; once mined again it is confirmed, and the ledger, the address and
     * the seller wallet each count the money exactly once.
     */
    @Test
    void aSweepTakenOutByAReorgIsReopenedAndCountedOnce() {
        String chain = "polygon";
        EvmRpc rpc = EvmWatcherTest.rpc(chain);
        String usdc = EvmWatcherTest.usdc(chain).address();
        String factory = chains.get(Chain.POLYGON).depositFactoryAddress().orElseThrow();
        sweepUntilIdle(); // what other tests left
        UUID id = UUID.randomUUID();
        String address = depositAddress(rpc, factory, id);
        Deposits.announce(chain, id, address);
        Deposits.awaitRegistered(watcher, chain, address);
        long amount = 2_345_678;
        String paid = EvmWatcherTest.tx(EvmWatcherTest.pay(rpc, usdc, address, amount));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(paid), 1, WAIT);
        BigInteger before = UsdcInstaller.balanceOf(rpc, usdc, ChainsTestResource.SELLER);
        BigInteger sweptBefore = sweptOn(chain);
        String snapshot = rpc.snapshot();

        Sweeper.Round first = sweeper.sweep(Chain.POLYGON).await().atMost(WAIT);
        assertThat(first.outcome()).isEqualTo("confirmed");
        assertThat(sweptOn(chain).subtract(sweptBefore)).isEqualTo(BigInteger.valueOf(amount));

        assertThat(rpc.revert(snapshot)).isTrue(); // the sweep's block is gone, the payment stays
        rpc.mine(2);
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, address)).isEqualTo(BigInteger.valueOf(amount));

        Sweeper.Round again = sweeper.sweep(Chain.POLYGON).await().atMost(WAIT);
        assertThat(again.txHash()).isEqualToIgnoringCase(first.txHash()); // the same transaction, not a second one
        assertThat(again.outcome()).isIn("confirmed", "sent");
        sweepUntilIdle();
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, address)).isZero();
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, ChainsTestResource.SELLER).subtract(before)).isEqualTo(BigInteger.valueOf(amount));
        assertThat(sweptOn(chain).subtract(sweptBefore)).isEqualTo(BigInteger.valueOf(amount));
        assertThat(owedOf(List.of(address))).isEmpty();
    }

    private BigInteger sweptOn(String chain) {
        return ledger.totals(pool).await().atMost(WAIT).stream().filter(t -> t.chain().equals(chain)).findFirst().orElseThrow().swept();
    }

    private List<SweepRepository.Owed> owedOf(List<String> addresses) {
        return ledger.owed(pool, "polygon", 10_000).await().atMost(WAIT).stream()
                .filter(o -> addresses.contains(o.address().toLowerCase(Locale.ROOT))).toList();
    }

    /** Sweeps until the chain has nothing sweepable left (other tests' non-CREATE2 addresses are skipped). */
    private Sweeper.Round sweepUntilIdle() {
        Sweeper.Round r = null;
        for (int i = 0; i < 10; i++) {
            r = sweeper.sweep(Chain.POLYGON).await().atMost(WAIT);
            if (r.outcome().equals("nothing_owed")) {
                return r;
            }
            assertThat(r.outcome()).isIn("confirmed", "sent");
        }
        throw new AssertionError("sweeping did not finish: " + r);
    }
}
