package dev.agentpay.commons.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The JSON of every event on Kafka and in outbox rows, pinned byte for byte. The files under
 * {@code events/golden/} were written by the event records as they were before the header was factored
 * out (flat records): what is already in topics and outbox tables must still be read, and what this build
 * writes must read the same to a consumer of that earlier build.
 */
class EventWireFormatTest {

    static Stream<Arguments> golden() {
        return Stream.of(
                Arguments.of("mandate-event.json", MandateEvent.class, mandateEvent()),
                Arguments.of("mandate-event-anchored.json", MandateEvent.class, new MandateEvent(new EventHeader(
                        UUID.fromString("11111111-2222-4333-8444-555555555555"), MandateEvent.ANCHORED, "mnd_01J9Z3K7Q2",
                        "ptn_alpha", Instant.parse("2026-03-14T09:27:10Z"), MandateEvent.SCHEMA_VERSION),
                        "6d1f3a52-8e0b-4c1e-9a7d-2b4c6e8f0a13", null, "signed_by_both", HASH,
                        json("{\"id\":\"mnd_01J9Z3K7Q2\",\"state\":\"signed_by_both\"}"))),
                Arguments.of("anchor-receipt-event.json", AnchorReceiptEvent.class, new AnchorReceiptEvent(new EventHeader(
                        UUID.fromString("a7c3e9d1-0b2f-5e4d-8c6a-1f3b5d7e9a0c"), AnchorReceiptEvent.TYPE, "mnd_01J9Z3K7Q2",
                        "ptn_alpha", Instant.parse("2026-03-14T09:27:09.004Z"), AnchorReceiptEvent.SCHEMA_VERSION),
                        "6d1f3a52-8e0b-4c1e-9a7d-2b4c6e8f0a13", HASH, "signed_by_both", 84532L,
                        "0x5e2b1c7a9d3f4e6b8a0c2d4f6e8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a", 19_283_746L, 3,
                        "0x8ba1f109551bd432803012645ac136ddd64dba72")),
                Arguments.of("anchor-receipt-event-signer.json", AnchorReceiptEvent.class, new AnchorReceiptEvent(new EventHeader(
                        UUID.fromString("a7c3e9d1-0b2f-5e4d-8c6a-1f3b5d7e9a0d"), AnchorReceiptEvent.TYPE, "mnd_01J9Z3K7Q2",
                        "ptn_alpha", Instant.parse("2026-11-26T17:00:00.004Z"), AnchorReceiptEvent.SCHEMA_VERSION),
                        "6d1f3a52-8e0b-4c1e-9a7d-2b4c6e8f0a14", HASH, "completed", 84532L,
                        "0x5e2b1c7a9d3f4e6b8a0c2d4f6e8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1b", 19_283_800L, 0,
                        "0x8ba1f109551bd432803012645ac136ddd64dba72", "0x70997970c51812dc3a010c7d01b50e0d17dc79c8")),
                Arguments.of("chain-transfer-event.json", ChainTransferEvent.class, new ChainTransferEvent(new EventHeader(
                        UUID.fromString("c9e5ab03-2d41-4a6f-ae8c-3b5d7f9a1c2e"), ChainTransferEvent.DETECTED,
                        "base:0x3a4b5c6d7e8f:7", null, Instant.parse("2026-03-14T10:00:00.120Z"),
                        ChainTransferEvent.SCHEMA_VERSION), "base", "0x3a4b5c6d7e8f", 7, 28_512_044L,
                        "0x0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e",
                        "0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222",
                        new BigInteger("123456789012345678901234567890"), "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
                        null, "evm-detector")),
                Arguments.of("chain-transfer-event-solana.json", ChainTransferEvent.class, new ChainTransferEvent(new EventHeader(
                        UUID.fromString("d0f6bc14-3e52-4b70-bf9d-4c6e8a0b2d3f"), ChainTransferEvent.RETRACTED,
                        "solana:" + SOLANA_TX + ":0", null, Instant.parse("2026-03-14T10:00:01Z"),
                        ChainTransferEvent.SCHEMA_VERSION), "solana", SOLANA_TX, 0, 301_455_120L, null,
                        "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",
                        BigInteger.valueOf(2_500_000), "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
                        "inv_42 memo \u00e9", "solana-detector")),
                Arguments.of("invoice-event.json", InvoiceEvent.class, new InvoiceEvent(new EventHeader(
                        UUID.fromString("e1a7cd25-4f63-4c81-8a0e-5d7f9b1c3e40"), InvoiceEvent.SETTLED,
                        "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "ptn_alpha", Instant.parse("2026-03-14T10:00:02.5Z"),
                        InvoiceEvent.SCHEMA_VERSION), "SETTLED", json("{\"id\":\"3f2504e0-4f89-11d3-9a0c-0305e82c3301\","
                                + "\"invoiceNumber\":17,\"status\":\"SETTLED\",\"amount\":\"25.000000\",\"chain\":\"base\","
                                + "\"payments\":[{\"txHash\":\"0x3a4b5c6d7e8f\",\"amount\":\"25.000000\"}],\"metadata\":{},"
                                + "\"excessAmount\":null}"))),
                Arguments.of("partner-event.json", PartnerEvent.class, new PartnerEvent(new EventHeader(
                        UUID.fromString("f2b8de36-5a74-4d92-9b1f-6e8a0c2d4f51"), PartnerEvent.TYPE, "ptn_alpha", "ptn_alpha",
                        Instant.parse("2026-03-14T08:00:00Z"), PartnerEvent.SCHEMA_VERSION), "Alpha Agents \u2014 Ltd",
                        PartnerEvent.ACTIVE, List.of(HASH.substring(2),
                                "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"))),
                Arguments.of("partner-event-revoked.json", PartnerEvent.class, new PartnerEvent(new EventHeader(
                        UUID.fromString("03c9ef47-6b85-4ea3-8c20-7f9b1d3e5a62"), PartnerEvent.TYPE, "ptn_beta", "ptn_beta",
                        Instant.parse("2026-03-14T08:30:00Z"), PartnerEvent.SCHEMA_VERSION), "Beta", PartnerEvent.REVOKED,
                        List.of())),
                Arguments.of("platform-event.json", PlatformEvent.class, new PlatformEvent(new EventHeader(
                        UUID.fromString("14da0f58-7c96-4fb4-9d31-8a0c2e4f6b73"), PlatformEvent.BENCHMARK_PUBLISHED,
                        "bench_2026_03_14", null, Instant.parse("2026-03-14T11:11:11.111Z"), PlatformEvent.SCHEMA_VERSION),
                        json("{\"id\":\"bench_2026_03_14\",\"score\":0.875,\"tasks\":[{\"name\":\"pay\",\"passed\":true}],"
                                + "\"url\":\"https://agentpay.example/disco/benchmark/bench_2026_03_14\"}"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void earlierJsonIsReadAndWrittenAgainByteForByte(String file, Class<? extends DomainEvent> type, DomainEvent expected) {
        String written = golden(file);
        DomainEvent read = EventCodec.decode(written, type);
        assertThat(read).isEqualTo(expected);
        assertThat(EventCodec.encode(read)).isEqualTo(written);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("golden")
    void eventsBuiltTodayWriteWhatTheEarlierBuildWrote(String file, Class<? extends DomainEvent> type, DomainEvent built) {
        assertThat(EventCodec.encode(built)).isEqualTo(golden(file));
    }

    @Test
    void aReceiptOfTheBuildsBeforeTheContractAddressDecodesWithoutIt() {
        AnchorReceiptEvent read = EventCodec.decode(golden("anchor-receipt-event-legacy-no-contract.json"),
                AnchorReceiptEvent.class);
        assertThat(read).isEqualTo(new AnchorReceiptEvent(new EventHeader(UUID.fromString("b8d4fae2-1c30-4f5e-9d7b-2a4c6e8f0b1d"),
                AnchorReceiptEvent.TYPE, "mnd_01J9Z3K7Q3", "ptn_beta", Instant.parse("2025-12-01T23:59:59.999999999Z"),
                AnchorReceiptEvent.SCHEMA_VERSION), "7e2f4b63-9f1c-4d2f-8b8e-3c5d7f9a1b24", "0x00", "revoked", 84532L,
                "0xabc", 0L, 0));
        assertThat(read.contract()).isNull();
    }

    /** Issue 33 item 9: consumers read an invoice event's invoice through the typed {@link InvoiceView}. */
    @Test
    void theInvoiceOfEveryPinnedInvoiceEventReadsTyped() {
        InvoiceView settled = EventCodec.decode(golden("invoice-event.json"), InvoiceEvent.class).view();
        assertThat(settled.id()).isEqualTo("3f2504e0-4f89-11d3-9a0c-0305e82c3301");
        assertThat(settled.status()).isEqualTo("SETTLED");
        assertThat(settled.amount()).isEqualTo("25.000000");
        assertThat(settled.paymentDetails()).as("written before invoices had payment details").isNull();
        assertThat(settled.chargeId()).isNull();

        // an invoice.created of a charge as invoice-service writes it today (numbers as numbers, every field it has)
        InvoiceEvent created = EventCodec.decode("{\"eventId\":\"25eb0f69-8da7-4f05-9e42-9b1d3f5a7c84\",\"type\":\"invoice.created\","
                + "\"aggregateId\":\"5a0d2c8e-1b3f-4a6e-9c7d-2e4f6a8b0c1d\",\"partnerId\":\"ptn_alpha\",\"occurredAt\":\"2026-11-27T08:00:00Z\","
                + "\"schemaVersion\":1,\"status\":\"PENDING\",\"invoice\":{\"id\":\"5a0d2c8e-1b3f-4a6e-9c7d-2e4f6a8b0c1d\","
                + "\"invoiceNumber\":3,\"status\":\"PENDING\",\"amount\":1.25,\"currency\":\"USDC\",\"paymentDetails\":{\"chain\":\"base\","
                + "\"networkId\":\"eip155:8453\",\"paymentAddress\":\"0xAbC0000000000000000000000000000000000001\","
                + "\"usdcAddress\":\"0x833589fcd6edb6e08f4c7c32d4f71b54bda02913\",\"payableAmount\":1.250017,"
                + "\"payableAtomic\":\"1250017\",\"memo\":\"inv_3\",\"paymentUri\":\"ethereum:0x8335@8453/transfer\"},"
                + "\"createdAt\":\"2026-11-27T08:00:00.000Z\",\"expiresAt\":\"2026-11-27T09:00:00.000Z\",\"mandateId\":\"mnd_1\","
                + "\"chargeId\":\"chg_1\",\"aFieldOfALaterVersion\":{\"x\":1}}}", InvoiceEvent.class);
        InvoiceView v = created.view();
        assertThat(v.paymentDetails().chain()).isEqualTo("base");
        assertThat(v.paymentDetails().paymentAddress()).isEqualTo("0xAbC0000000000000000000000000000000000001");
        assertThat(v.paymentDetails().payableAmount()).isEqualTo("1.250017");
        assertThat(v.amount()).isEqualTo("1.25");
        assertThat(v.chargeId()).isEqualTo("chg_1");
        assertThat(v.mandateId()).isEqualTo("mnd_1");
        assertThat(v.createdAt()).isEqualTo("2026-11-27T08:00:00.000Z");
        // the typed view reads; the event's own JSON (the webhook data) is untouched by it
        assertThat(EventCodec.encode(created)).contains("\"aFieldOfALaterVersion\":{\"x\":1}").doesNotContain("\"view\"");

        // no invoice, or a value that is no Invoice object: no view (every consumer skips it)
        assertThat(new InvoiceEvent(created.header(), "PENDING", null).view()).isNull();
        assertThat(new InvoiceEvent(created.header(), "PENDING", json("[1,2]")).view()).isNull();
        assertThat(new InvoiceEvent(created.header(), "PENDING", json("{\"paymentDetails\":\"base\"}")).view()).isNull();
    }

    @Test
    void fieldsInAnotherOrderAndUnknownFieldsAreRead() {
        assertThat(EventCodec.decode(golden("mandate-event-legacy-reordered-unknown-field.json"), MandateEvent.class))
                .isEqualTo(mandateEvent());
    }

    @Test
    void aRecordWithoutHeaderFieldsDecodesToAHeaderOfNullsNotToNoHeader() {
        // the consumers refuse such a record as poison by checking event.eventId() == null: that must not throw
        MandateEvent read = EventCodec.decode("{\"transitionId\":\"t1\"}", MandateEvent.class);
        assertThat(read.header()).isEqualTo(new EventHeader(null, null, null, null, null, 0));
        assertThat(read.eventId()).isNull();
        assertThat(read.aggregateId()).isNull();
        assertThat(read.transitionId()).isEqualTo("t1");
    }

    private static final String HASH = "0x9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    private static final String SOLANA_TX = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz1CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW";

    private static MandateEvent mandateEvent() {
        return new MandateEvent(new EventHeader(UUID.fromString("0f1e2d3c-4b5a-4697-8877-665544332211"), "mandate.signed_by_both",
                "mnd_01J9Z3K7Q2", "ptn_alpha", Instant.parse("2026-03-14T09:26:53.589793Z"), MandateEvent.SCHEMA_VERSION),
                "6d1f3a52-8e0b-4c1e-9a7d-2b4c6e8f0a13", "signed_by_proposer", "signed_by_both", HASH,
                json("{\"id\":\"mnd_01J9Z3K7Q2\",\"state\":\"signed_by_both\",\"amount\":\"12.50\",\"limits\":"
                        + "{\"max_per_call\":250,\"currency\":\"USDC\"},\"parties\":[\"ptn_alpha\",\"ptn_beta\"],"
                        + "\"note\":\"caf\\u00e9 \\u2713 \\\"quoted\\\"\",\"anchor_tx_hash\":null,\"revocable\":true}"));
    }

    private static JsonNode json(String text) {
        try {
            return EventCodec.mapper().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String golden(String file) {
        try (InputStream in = EventWireFormatTest.class.getResourceAsStream("/events/golden/" + file)) {
            assertThat(in).as("test resource events/golden/%s", file).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
