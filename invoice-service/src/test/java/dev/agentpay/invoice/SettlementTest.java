package dev.agentpay.invoice;

import static dev.agentpay.invoice.TestSupport.create;
import static dev.agentpay.invoice.TestSupport.publish;
import static dev.agentpay.invoice.TestSupport.transfer;
import static dev.agentpay.invoice.TestSupport.txHash;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Settlement through the real broker: watcher events produced to {@code chain-transfers}, the invoice
 * watched through GET, and the {@code invoice.*} events read back from {@code invoice-events}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class SettlementTest {

    static final String BASE_SELLER = "0x00000000000000000000000000000000000Ba5e1";
    static final String BASE_USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    static final String POLYGON_USDC = "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359";
    static final String SOL_SELLER = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    static final String SOL_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    PartnerRegistry registry;

    String key;

    @BeforeEach
    void partner() {
        key = TestSupport.partner(registry);
    }

    @Test
    void exactAmountToTheInvoicesOwnAddressSettlesItWithItsEvent() {
        JsonPath inv = create(key, "{\"amount\": 41.5, \"chain\": \"base\"}");
        String id = inv.getString("data.id");
        String address = inv.getString("data.paymentDetails.paymentAddress");
        assertThat(address).isNotEqualToIgnoringCase(BASE_SELLER).matches("0x[0-9a-fA-F]{40}");
        assertThat(inv.getString("data.paymentDetails.payableAtomic")).isEqualTo("41500000");
        assertThat(inv.getString("data.paymentDetails.paidAtomic")).isEqualTo("0");
        String tx = txHash();
        // the watcher reports addresses in lower case; the invoice shows the EIP-55 form
        publish(transfer(ChainTransferEvent.DETECTED, "base", tx, address.toLowerCase(), BASE_USDC.toLowerCase(), new BigInteger("41500000"), null));

        JsonPath settled = awaitStatus(id, "SETTLED");
        assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(tx);
        assertThat(settled.getLong("data.paymentDetails.settlementBlockNumber")).isEqualTo(1234L);
        assertThat(settled.getString("data.paymentDetails.settlementSource")).isEqualTo("evm-detector");
        assertThat(settled.getString("data.paymentDetails.paidAtomic")).isEqualTo("41500000");
        assertThat(settled.getString("data.paymentDetails.paidAmount")).isEqualTo("41.5");
        assertThat(settled.getString("data.paymentDetails.excessAmount")).isNull();
        assertThat(settled.getString("data.settledAt")).isNotNull();

        List<InvoiceEvent> events = invoiceEvents(id, 2);
        assertThat(events).extracting(InvoiceEvent::type).containsExactly(InvoiceEvent.CREATED, InvoiceEvent.SETTLED);
        InvoiceEvent ev = events.get(1);
        assertThat(ev.partnerId()).isNotBlank();
        assertThat(ev.status()).isEqualTo("SETTLED");
        assertThat(JsonPath.from(ev.invoice().toString()).getMap("")).isEqualTo(settled.getMap("data"));
    }

    @Test
    void sameAmountInvoicesPaidInReverseOrderEachSettleByTheirOwnTransfer() {
        int n = 5;
        List<JsonPath> open = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            open.add(create(key, "{\"amount\": 7.77, \"chain\": \"base\"}"));
        }
        assertThat(open).extracting(j -> j.getString("data.paymentDetails.paymentAddress").toLowerCase()).doesNotHaveDuplicates();
        assertThat(open).extracting(j -> j.getString("data.paymentDetails.payableAtomic")).containsOnly("7770000");
        // a transfer of exactly that amount to the seller wallet pays none of them
        String toSeller = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "base", toSeller, BASE_SELLER, BASE_USDC, new BigInteger("7770000"), null));
        List<String> txs = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            String tx = txHash();
            txs.add(0, tx);
            ChainTransferEvent e = transfer(ChainTransferEvent.DETECTED, "base", tx, open.get(i).getString("data.paymentDetails.paymentAddress"),
                    BASE_USDC, new BigInteger("7770000"), null);
            publish(e);
            publish(e); // redelivered: same event id
            // and reported again under a new event id (a watcher re-scan): same transfer id, nothing more
            publish(new ChainTransferEvent(EventHeader.of(e.type(), e.aggregateId(), null, e.occurredAt(), 1), e.chain(),
                    e.txHash(), e.index(), e.block(), e.blockHash(), e.from(), e.to(), e.amount(), e.token(), null, e.source()));
        }
        for (int i = 0; i < n; i++) {
            JsonPath settled = awaitStatus(open.get(i).getString("data.id"), "SETTLED");
            assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(txs.get(i));
            assertThat(settled.getString("data.paymentDetails.paidAtomic")).isEqualTo("7770000");
        }
        assertThat(invoiceEvents(open.get(0).getString("data.id"), 2)).extracting(InvoiceEvent::type)
                .containsExactly(InvoiceEvent.CREATED, InvoiceEvent.SETTLED);
        await("the transfer to the seller recorded as unmatched").atMost(WAIT).untilAsserted(() -> assertThat(unmatched())
                .anySatisfy(u -> assertThat(u).containsEntry("txHash", toSeller).containsEntry("reason", "not_an_invoice_address")));
    }

    @Test
    void partialPaymentsAddUpOverpaymentIsRecordedAndLatePaymentsAreCredited() {
        JsonPath inv = create(key, "{\"amount\": 10, \"chain\": \"polygon\"}");
        String id = inv.getString("data.id");
        String to = inv.getString("data.paymentDetails.paymentAddress");
        String first = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "polygon", first, to, POLYGON_USDC, new BigInteger("4000000"), null));
        await("partial payment credited").atMost(WAIT).until(() -> "4000000".equals(TestSupport.get(key, id).getString("data.paymentDetails.paidAtomic")));
        JsonPath partial = TestSupport.get(key, id);
        assertThat(partial.getString("data.status")).isEqualTo("PENDING");
        assertThat(partial.getString("data.paymentDetails.paidAmount")).isEqualTo("4");
        assertThat(partial.getString("data.paymentDetails.txHash")).isNull();

        String second = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "polygon", second, to, POLYGON_USDC, new BigInteger("6500000"), null));
        JsonPath settled = awaitStatus(id, "SETTLED");
        assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(second);
        assertThat(settled.getString("data.paymentDetails.paidAmount")).isEqualTo("10.5");
        assertThat(settled.getString("data.paymentDetails.excessAmount")).isEqualTo("0.5");

        String late = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "polygon", late, to, POLYGON_USDC, new BigInteger("1000000"), null));
        await("payment after settlement credited").atMost(WAIT).until(() -> "11500000".equals(TestSupport.get(key, id).getString("data.paymentDetails.paidAtomic")));
        JsonPath after = TestSupport.get(key, id);
        assertThat(after.getString("data.status")).isEqualTo("SETTLED");
        assertThat(after.getString("data.paymentDetails.txHash")).isEqualTo(second);
        assertThat(after.getString("data.paymentDetails.excessAmount")).isEqualTo("1.5");
        assertThat(invoiceEvents(id, 5)).extracting(InvoiceEvent::type).containsExactly(InvoiceEvent.CREATED,
                InvoiceEvent.PARTIALLY_PAID, InvoiceEvent.SETTLED, InvoiceEvent.OVERPAID, InvoiceEvent.OVERPAID);
    }

    @Test
    void anInvoiceExpiresAtItsDeadlineAndAPaymentAfterwardsIsRecordedAsPaidLate() {
        String deadline = java.time.Instant.now().plusSeconds(2).toString();
        JsonPath inv = create(key, "{\"amount\": 7, \"chain\": \"base\", \"expiresAt\": \"" + deadline + "\"}");
        String id = inv.getString("data.id");
        String to = inv.getString("data.paymentDetails.paymentAddress");
        assertThat(inv.getString("data.status")).isEqualTo("PENDING");

        JsonPath expired = awaitStatus(id, "EXPIRED");
        assertThat(java.time.Instant.parse(expired.getString("data.expiredAt")))
                .isAfterOrEqualTo(java.time.Instant.parse(expired.getString("data.expiresAt")));
        assertThat(expired.getString("data.paymentDetails.paidAtomic")).isEqualTo("0");
        // nothing can be paid with x402 any more (refused before any payment is asked for)
        given().post("/v1/invoices/" + id + "/pay").then().statusCode(410).body("error.code", org.hamcrest.Matchers.equalTo("invoice_expired"));

        // the whole amount arrives late: credited and reported, the invoice stays EXPIRED (the merchant decides)
        String late = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "base", late, to, BASE_USDC, new BigInteger("7000000"), null));
        await("late payment credited").atMost(WAIT).until(
                () -> "7000000".equals(TestSupport.get(key, id).getString("data.paymentDetails.paidAtomic")));
        JsonPath after = TestSupport.get(key, id);
        assertThat(after.getString("data.status")).isEqualTo("EXPIRED");
        assertThat(after.getString("data.paymentDetails.paidAmount")).isEqualTo("7");
        assertThat(after.getString("data.paymentDetails.txHash")).isNull();
        assertThat(after.getString("data.settledAt")).isNull();
        List<InvoiceEvent> events = invoiceEvents(id, 3);
        assertThat(events).extracting(InvoiceEvent::type)
                .containsExactly(InvoiceEvent.CREATED, InvoiceEvent.EXPIRED, InvoiceEvent.PAID_LATE);
        assertThat(events.get(1).status()).isEqualTo("EXPIRED");
        assertThat(events.get(2).invoice().path("paymentDetails").path("paidAtomic").asText()).isEqualTo("7000000");
        // the late transfer counted for its invoice: it is not among the operator's unmatched transfers
        assertThat(unmatched()).noneSatisfy(u -> assertThat(u).containsEntry("txHash", late));
    }

    @Test
    void aPartlyPaidInvoiceExpiresWithWhatItReceived() {
        String deadline = java.time.Instant.now().plusSeconds(3).toString();
        JsonPath inv = create(key, "{\"amount\": 9, \"chain\": \"polygon\", \"expiresAt\": \"" + deadline + "\"}");
        String id = inv.getString("data.id");
        publish(transfer(ChainTransferEvent.DETECTED, "polygon", txHash(), inv.getString("data.paymentDetails.paymentAddress"),
                POLYGON_USDC, new BigInteger("2000000"), null));
        JsonPath expired = awaitStatus(id, "EXPIRED");
        assertThat(expired.getString("data.paymentDetails.paidAmount")).isEqualTo("2");
        List<InvoiceEvent> events = invoiceEvents(id, 3);
        assertThat(events).extracting(InvoiceEvent::type)
                .containsExactly(InvoiceEvent.CREATED, InvoiceEvent.PARTIALLY_PAID, InvoiceEvent.EXPIRED);
        assertThat(events.get(2).invoice().path("paymentDetails").path("paidAtomic").asText()).isEqualTo("2000000");
    }

    @Test
    void otherTokenOtherRecipientOrOtherChainSettlesNothingAndIsRecordedForTheOperator() {
        JsonPath inv = create(key, "{\"amount\": 5, \"chain\": \"base\"}");
        String to = inv.getString("data.paymentDetails.paymentAddress");
        BigInteger payable = new BigInteger(inv.getString("data.paymentDetails.payableAtomic"));
        String wrongToken = txHash();
        String wrongTo = txHash();
        String wrongChain = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "base", wrongToken, to, "0x000000000000000000000000000000000000dEaD", payable, null));
        publish(transfer(ChainTransferEvent.DETECTED, "base", wrongTo, "0x000000000000000000000000000000000000c0de", BASE_USDC, payable, null));
        // the same address on another chain is another chain's address (another factory): not this invoice
        publish(transfer(ChainTransferEvent.DETECTED, "polygon", wrongChain, to, POLYGON_USDC, payable, null));
        // each transfer recorded as unmatched proves it was consumed (and refused) before the invoice is looked at
        await("the three transfers recorded as unmatched").atMost(WAIT).untilAsserted(() -> {
            List<Map<String, Object>> u = unmatched();
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", wrongToken).containsEntry("reason", "not_usdc"));
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", wrongTo).containsEntry("reason", "not_an_invoice_address"));
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", wrongChain).containsEntry("reason", "not_an_invoice_address"));
        });
        assertThat(TestSupport.get(key, inv.getString("data.id")).getString("data.status")).isEqualTo("PENDING");
        assertThat(TestSupport.get(key, inv.getString("data.id")).getString("data.paymentDetails.paidAtomic")).isEqualTo("0");
        given().get("/admin/transfers/unmatched").then().statusCode(401);
    }

    @Test
    void aRetractedTransferPutsTheInvoiceBackToPendingAndItsReturnSettlesItAgain() {
        JsonPath inv = create(key, "{\"amount\": 19.99, \"chain\": \"base\"}");
        String id = inv.getString("data.id");
        String to = inv.getString("data.paymentDetails.paymentAddress");
        BigInteger payable = new BigInteger(inv.getString("data.paymentDetails.payableAtomic"));
        String tx = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "base", tx, to, BASE_USDC, payable, null));
        awaitStatus(id, "SETTLED");
        publish(transfer(ChainTransferEvent.RETRACTED, "base", tx, to, BASE_USDC, payable, null));
        JsonPath back = awaitStatus(id, "PENDING");
        assertThat(back.getString("data.paymentDetails.txHash")).isNull();
        assertThat(back.getString("data.paymentDetails.paidAtomic")).isEqualTo("0");
        assertThat(back.getString("data.paymentDetails.payableAtomic")).isEqualTo(payable.toString());
        // the same payment mined again in the new chain
        publish(transfer(ChainTransferEvent.DETECTED, "base", tx, to, BASE_USDC, payable, null));
        awaitStatus(id, "SETTLED");
        assertThat(invoiceEvents(id, 4)).extracting(InvoiceEvent::type).containsExactly(InvoiceEvent.CREATED,
                InvoiceEvent.SETTLED, InvoiceEvent.UNSETTLED, InvoiceEvent.SETTLED);
    }

    @Test
    void solanaIsAttributedByMemoNeverByAmountAndPartsAddUp() {
        JsonPath inv = create(key, "{\"amount\": 2.5, \"chain\": \"solana\"}");
        String id = inv.getString("data.id");
        String memo = inv.getString("data.paymentDetails.memo");
        assertThat(inv.getString("data.paymentDetails.paymentAddress")).isEqualTo(SOL_SELLER);
        BigInteger payable = new BigInteger(inv.getString("data.paymentDetails.payableAtomic"));
        String wrongMint = txHash();
        String wrongMemo = txHash();
        String noMemo = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, "solana", wrongMint, SOL_SELLER, "So11111111111111111111111111111111111111112", payable, memo));
        publish(transfer(ChainTransferEvent.DETECTED, "solana", wrongMemo, SOL_SELLER, SOL_MINT, payable, UUID.randomUUID().toString()));
        publish(transfer(ChainTransferEvent.DETECTED, "solana", noMemo, SOL_SELLER, SOL_MINT, payable, null));
        // each transfer recorded as unmatched proves it was consumed (and refused) before the invoice is looked at
        await("the three transfers recorded as unmatched").atMost(WAIT).untilAsserted(() -> {
            List<Map<String, Object>> u = unmatched();
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", wrongMint).containsEntry("reason", "not_usdc"));
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", wrongMemo).containsEntry("reason", "no_invoice_for_memo"));
            assertThat(u).anySatisfy(m -> assertThat(m).containsEntry("txHash", noMemo).containsEntry("reason", "no_invoice_for_memo"));
        });
        assertThat(TestSupport.get(key, id).getString("data.status")).isEqualTo("PENDING");

        publish(transfer(ChainTransferEvent.DETECTED, "solana", txHash(), SOL_SELLER, SOL_MINT, BigInteger.ONE, memo));
        String sig = "5" + "j".repeat(86);
        publish(transfer(ChainTransferEvent.DETECTED, "solana", sig, SOL_SELLER, SOL_MINT, payable.add(BigInteger.TEN), " " + memo.toUpperCase() + " "));
        JsonPath settled = awaitStatus(id, "SETTLED");
        assertThat(settled.getString("data.paymentDetails.settlementSource")).isEqualTo("solana-detector");
        assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(sig);
        assertThat(settled.getString("data.paymentDetails.paidAtomic")).isEqualTo(payable.add(BigInteger.valueOf(11)).toString());
        // (JsonPath reads JSON numbers as floats: compare the value)
        assertThat(new java.math.BigDecimal(settled.getString("data.paymentDetails.excessAmount"))).isEqualByComparingTo("0.000011");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
            "base,0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "polygon,0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359",
            "arbitrum,0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
            "skale,0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20"})
    void eachEvmChainSettlesByATransferToTheInvoicesAddress(String chain, String usdc) {
        JsonPath inv = create(key, "{\"amount\": 64.01, \"chain\": \"" + chain + "\"}");
        String id = inv.getString("data.id");
        BigInteger payable = new BigInteger(inv.getString("data.paymentDetails.payableAtomic"));
        String tx = txHash();
        publish(transfer(ChainTransferEvent.DETECTED, chain, tx, inv.getString("data.paymentDetails.paymentAddress"), usdc, payable, null));
        JsonPath settled = awaitStatus(id, "SETTLED");
        assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(tx);
        assertThat(settled.getString("data.paymentDetails.chain")).isEqualTo(chain);
    }

    private JsonPath awaitStatus(String id, String status) {
        JsonPath[] last = new JsonPath[1];
        await("invoice " + id + " " + status).atMost(WAIT).until(() -> {
            last[0] = TestSupport.get(key, id);
            return status.equals(last[0].getString("data.status"));
        });
        return last[0];
    }

    private List<Map<String, Object>> unmatched() {
        return given().header("x-admin-key", "test-admin-key-0123456789").queryParam("limit", 1000)
                .get("/admin/transfers/unmatched").then().statusCode(200).extract().jsonPath().getList("data");
    }

    private static List<InvoiceEvent> invoiceEvents(String invoiceId, int expected) {
        try (ConsumerTask<String, String> events = TestKafka.collect(Topics.INVOICE_EVENTS)) {
            await(expected + " events of " + invoiceId).atMost(WAIT).until(() -> eventsOf(events, invoiceId), l -> l.size() >= expected);
            // and nothing more than expected arrives shortly after
            await("no more than " + expected + " events of " + invoiceId).during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .until(() -> eventsOf(events, invoiceId), l -> l.size() == expected);
            return eventsOf(events, invoiceId);
        }
    }

    private static List<InvoiceEvent> eventsOf(ConsumerTask<String, String> events, String invoiceId) {
        return events.stream().filter(r -> invoiceId.equals(r.key())).map(r -> EventCodec.decode(r.value(), InvoiceEvent.class)).toList();
    }
}
