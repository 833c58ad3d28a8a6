package dev.agentpay.settlement;

import static dev.agentpay.settlement.ChainsTestResource.SELLER;
import static dev.agentpay.settlement.Deposits.deposit;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.settlement.watcher.service.WatcherSupervisor;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The EVM watcher against four real anvil chains (real chain ids, USDC at the canonical addresses). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class EvmWatcherTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String PAYER = AnvilNode.DEV_ADDRESS_0;

    @Inject
    WatcherSupervisor supervisor;

    @Inject
    io.vertx.mutiny.core.Vertx vertx;

    @Inject
    dev.agentpay.commons.chains.ChainTable chains;

    @Inject
    dev.agentpay.settlement.watcher.service.WatcherLedger ledger;

    @Inject
    dev.agentpay.settlement.watcher.service.ChainLeases leases;

    @Inject
    dev.agentpay.settlement.config.SettlementConfig config;


    TransferEvents events;

    @BeforeEach
    void consume() {
        Deposits.registerOnce(ledger);
        events = new TransferEvents(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void close() {
        events.close();
    }

    static EvmRpc rpc(String chain) {
        return new EvmRpc(ConfigProvider.getConfig().getValue("chains." + chain + ".rpc-url", String.class));
    }

    static UsdcInstaller.Canonical usdc(String chain) {
        return UsdcInstaller.canonical(chain).orElseThrow();
    }

    /** Mints to the payer and pays {@code to}; returns the receipt. */
    static JsonNode pay(EvmRpc rpc, String token, String to, long amount) {
        UsdcInstaller.mint(rpc, token, PAYER, BigInteger.valueOf(amount));
        return UsdcInstaller.transfer(rpc, token, PAYER, to, BigInteger.valueOf(amount));
    }

    static String tx(JsonNode receipt) {
        return receipt.get("transactionHash").asText();
    }

    @ParameterizedTest
    @ValueSource(strings = {"base", "polygon", "arbitrum", "skale"})
    void aUsdcTransferToAnInvoiceDepositAddressIsPublishedOnceConfirmed(String chain) {
        EvmRpc rpc = rpc(chain);
        assertThat(rpc.chainId()).isEqualTo(usdc(chain).chainId());
        String token = usdc(chain).address();
        JsonNode receipt = pay(rpc, token, deposit(chain), 1_234_567);
        String tx = tx(receipt);
        long block = Long.decode(receipt.get("blockNumber").asText());

        // one confirmation short: nothing yet
        rpc.mine(ChainsTestResource.CONFIRMATIONS - 2);
        events.noneDuring(e -> e.txHash().equals(tx), Duration.ofSeconds(1));

        rpc.mine(1);
        ChainTransferEvent e = events.await(ev -> ev.txHash().equals(tx), 1, WAIT).get(0);
        assertThat(e.type()).isEqualTo(ChainTransferEvent.DETECTED);
        assertThat(e.chain()).isEqualTo(chain);
        assertThat(e.aggregateId()).isEqualTo(ChainTransferEvent.transferId(chain, tx, e.index()));
        assertThat(e.index()).isEqualTo(Integer.decode(receipt.get("logs").get(0).get("logIndex").asText()));
        assertThat(e.block()).isEqualTo(block);
        assertThat(e.blockHash()).isEqualTo(receipt.get("blockHash").asText());
        assertThat(e.from()).isEqualToIgnoringCase(PAYER);
        assertThat(e.to()).isEqualToIgnoringCase(deposit(chain));
        assertThat(e.amount()).isEqualTo(BigInteger.valueOf(1_234_567));
        assertThat(e.token()).isEqualToIgnoringCase(token);
        assertThat(e.source()).isEqualTo("evm-detector");
        assertThat(e.memo()).isNull();
    }

    @Test
    void otherTokensAndOtherRecipientsAreNotPublished() {
        EvmRpc rpc = rpc("base");
        String fake = "0x00000000000000000000000000000000000bad01";
        UsdcInstaller.install(rpc, fake, "USD Coin", "2");
        String otherToken = tx(pay(rpc, fake, deposit("base"), 5_000_000));
        String toSeller = tx(pay(rpc, usdc("base").address(), SELLER, 5_000_000));
        String otherRecipient = tx(pay(rpc, usdc("base").address(), "0x000000000000000000000000000000000000c0de", 5_000_000));
        String sentinel = tx(pay(rpc, usdc("base").address(), deposit("base"), 5_000_000));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(sentinel), 1, WAIT);
        events.noneDuring(e -> e.txHash().equals(otherToken) || e.txHash().equals(otherRecipient) || e.txHash().equals(toSeller), Duration.ofMillis(500));
    }

    @Test
    void anAddressLearnedOnlyAfterItsPaymentWasScannedIsBackFilled() {
        EvmRpc rpc = rpc("skale");
        String token = usdc("skale").address();
        java.time.Instant created = java.time.Instant.now();
        String late = Deposits.randomAddress();
        String tx = tx(pay(rpc, token, late, 555));
        String sentinel = tx(pay(rpc, token, deposit("skale"), 556));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        // the block is scanned (the sentinel after it is published) while nobody knows the address yet
        events.await(e -> e.txHash().equals(sentinel), 1, WAIT);
        events.noneDuring(e -> e.txHash().equals(tx), Duration.ofMillis(300));

        Deposits.announce("skale", java.util.UUID.randomUUID(), late, created);
        ChainTransferEvent e = events.await(ev -> ev.txHash().equals(tx), 1, WAIT).get(0);
        assertThat(e.to()).isEqualToIgnoringCase(late);
        assertThat(e.amount()).isEqualTo(BigInteger.valueOf(555));
        // published once, whatever the following scans see
        rpc.mine(2);
        events.countDuring(ev -> ev.txHash().equals(tx), 1, Duration.ofSeconds(1));
    }

    @Inject
    dev.agentpay.settlement.deposit.messaging.InvoiceCreatedConsumer invoiceCreated;

    @Test
    void anInvoiceOfTheSharedAddressEraNeverMakesTheSellerWalletWatched() {
        // invoice.created of an invoice created before per-invoice addresses: paymentAddress = the seller
        var invoice = dev.agentpay.commons.events.EventCodec.mapper().createObjectNode();
        java.util.UUID id = java.util.UUID.randomUUID();
        invoice.put("id", id.toString());
        invoice.put("createdAt", java.time.Instant.now().toString());
        invoice.putObject("paymentDetails").put("chain", "base").put("paymentAddress", SELLER);
        invoiceCreated.onInvoiceEvent(dev.agentpay.commons.events.EventCodec.encode(new dev.agentpay.commons.events.InvoiceEvent(
                dev.agentpay.commons.events.EventHeader.of(dev.agentpay.commons.events.InvoiceEvent.CREATED, id.toString(), "p",
                        java.time.Instant.now(), 1), "PENDING", invoice)), null).await().atMost(WAIT);
        // a malformed record goes to the dead-letter topic, not fatal
        invoiceCreated.onInvoiceEvent("{not json", null).await().atMost(WAIT);
        assertThat(ledger.depositsSince("base", 0, 1_000_000).await().atMost(WAIT))
                .noneMatch(d -> d.address().equalsIgnoreCase(SELLER) || d.invoiceId().equals(id));
    }

    @Test
    void aReorgThatDropsThePaymentRetractsIt() {
        EvmRpc rpc = rpc("polygon");
        UsdcInstaller.mint(rpc, usdc("polygon").address(), PAYER, BigInteger.valueOf(9_000_000));
        String snapshot = rpc.snapshot();
        String tx = tx(UsdcInstaller.transfer(rpc, usdc("polygon").address(), PAYER, deposit("polygon"), BigInteger.valueOf(9_000_000)));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        ChainTransferEvent detected = events.await(e -> e.txHash().equals(tx), 1, WAIT).get(0);

        assertThat(rpc.revert(snapshot)).isTrue();
        rpc.mine(ChainsTestResource.CONFIRMATIONS + 3); // a longer chain without the payment

        List<ChainTransferEvent> all = events.await(e -> e.txHash().equals(tx), 2, WAIT);
        assertThat(all).extracting(ChainTransferEvent::type)
                .containsExactly(ChainTransferEvent.DETECTED, ChainTransferEvent.RETRACTED);
        assertThat(all.get(1).aggregateId()).isEqualTo(detected.aggregateId());
        assertThat(all.get(1).amount()).isEqualTo(detected.amount());

        // the watcher keeps going on the new chain
        String after = tx(pay(rpc, usdc("polygon").address(), deposit("polygon"), 1_000));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(after), 1, WAIT);
        events.countDuring(e -> e.txHash().equals(tx), 2, Duration.ofMillis(300));
    }

    @Test
    void aStoppedWatcherCatchesUpOn500BlocksWithNothingMissedAndNothingDoubled() {
        EvmRpc rpc = rpc("arbitrum");
        String token = usdc("arbitrum").address();
        String before = tx(pay(rpc, token, deposit("arbitrum"), 11));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(before), 1, WAIT);

        supervisor.stop(Chain.ARBITRUM).await().atMost(WAIT);
        String first = tx(pay(rpc, token, deposit("arbitrum"), 22));
        rpc.mine(250);
        String second = tx(pay(rpc, token, deposit("arbitrum"), 33));
        rpc.mine(250);
        events.noneDuring(e -> e.txHash().equals(first) || e.txHash().equals(second), Duration.ofSeconds(1));

        long t0 = System.nanoTime();
        supervisor.start(Chain.ARBITRUM);
        events.await(e -> e.txHash().equals(first) || e.txHash().equals(second), 2, WAIT);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "catch-up: 500+ blocks in %.2f s (%.0f blocks/s)%n", seconds, 502 / seconds);

        // restart again: nothing is published twice
        supervisor.stop(Chain.ARBITRUM).await().atMost(WAIT);
        supervisor.start(Chain.ARBITRUM);
        String sentinel = tx(pay(rpc, token, deposit("arbitrum"), 44));
        rpc.mine(ChainsTestResource.CONFIRMATIONS);
        events.await(e -> e.txHash().equals(sentinel), 1, WAIT);
        events.countDuring(e -> List.of(before, first, second).contains(e.txHash()), 3, Duration.ofMillis(300));
    }

    @Test
    void aProviderRefusingLargeRangesMakesTheScannerShrinkItsRange() throws Exception {
        EvmRpc rpc = rpc("base");
        String token = usdc("base").address();
        supervisor.stop(Chain.BASE).await().atMost(WAIT);
        try (RangeLimitingProxy proxy = new RangeLimitingProxy(
                ConfigProvider.getConfig().getValue("chains.base.rpc-url", String.class), 40);
                var client = new dev.agentpay.settlement.client.EvmClient(vertx, "base", proxy.url(), Duration.ofSeconds(5))) {
            String early = tx(pay(rpc, token, deposit("base"), 71));
            rpc.mine(150);
            String late = tx(pay(rpc, token, deposit("base"), 72));
            rpc.mine(ChainsTestResource.CONFIRMATIONS);
            var entry = chains.get(Chain.BASE);
            var scanner = new dev.agentpay.settlement.watcher.service.EvmScanner(entry, client, ledger, config);
            // the scanner commits under this instance's fencing token for base, as the supervisor's loop does
            int published = scanner.tick(leases.token("base")).await().atMost(WAIT);
            assertThat(published).isEqualTo(2);
            assertThat(proxy.refused.get()).isPositive();
            assertThat(proxy.served.get()).isGreaterThanOrEqualTo(4); // 150+ blocks in ranges of at most 40
            assertThat(events.await(e -> e.txHash().equals(early) || e.txHash().equals(late), 2, WAIT)).hasSize(2);
        } finally {
            supervisor.start(Chain.BASE);
        }
    }

    @Test
    void detectionLatencyFromTheConfirmingBlockToThePublishedEvent() {
        EvmRpc rpc = rpc("skale");
        String token = usdc("skale").address();
        List<Long> millis = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String tx = tx(pay(rpc, token, deposit("skale"), 100 + i));
            rpc.mine(ChainsTestResource.CONFIRMATIONS - 2);
            long t0 = System.nanoTime();
            rpc.mine(1); // the confirming block
            events.await(e -> e.txHash().equals(tx), 1, WAIT);
            millis.add((System.nanoTime() - t0) / 1_000_000);
        }
        java.util.Collections.sort(millis);
        System.out.printf(Locale.ROOT, "detection latency (confirming block -> chain-transfers event, 200 ms polls): p50 %d ms, p99 %d ms, max %d ms%n",
                millis.get(millis.size() / 2), millis.get((int) Math.ceil(millis.size() * 0.99) - 1), millis.get(millis.size() - 1));
        assertThat(millis.get(millis.size() - 1)).isLessThan(WAIT.toMillis());
    }
}
