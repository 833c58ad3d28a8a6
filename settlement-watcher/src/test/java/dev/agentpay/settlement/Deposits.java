package dev.agentpay.settlement;

import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.settlement.watcher.service.WatcherLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Invoice deposit addresses for the watcher tests, announced the way invoice-service does it: an
 * {@code invoice.created} event on the real {@code invoice-events} topic.
 */
final class Deposits {

    private static final Map<String, String> BY_CHAIN = new HashMap<>();

    private Deposits() {
    }

    /** This test run's deposit address on a chain (registered by {@link #registerOnce}). */
    static synchronized String deposit(String chain) {
        return BY_CHAIN.get(chain);
    }

    /** Announces one deposit address per EVM chain and waits until the watcher has registered each. */
    static synchronized void registerOnce(WatcherLedger ledger) {
        if (!BY_CHAIN.isEmpty()) {
            return;
        }
        for (String chain : List.of("base", "polygon", "arbitrum", "skale")) {
            BY_CHAIN.put(chain, announce(chain, UUID.randomUUID(), randomAddress()));
        }
        for (var e : BY_CHAIN.entrySet()) {
            awaitRegistered(ledger, e.getKey(), e.getValue());
        }
    }

    static String randomAddress() {
        return "0x" + (UUID.randomUUID().toString() + UUID.randomUUID()).replace("-", "").substring(0, 40);
    }

    /** Produces {@code invoice.created} for an EVM invoice paid to {@code address}; returns the address. */
    static String announce(String chain, UUID invoiceId, String address) {
        return announce(chain, invoiceId, address, Instant.now());
    }

    static String announce(String chain, UUID invoiceId, String address, Instant createdAt) {
        var invoice = EventCodec.mapper().createObjectNode();
        invoice.put("id", invoiceId.toString());
        invoice.put("status", "PENDING");
        invoice.put("createdAt", createdAt.toString());
        var pd = invoice.putObject("paymentDetails");
        pd.put("chain", chain);
        pd.put("paymentAddress", address);
        InvoiceEvent e = new InvoiceEvent(EventHeader.of(InvoiceEvent.CREATED, invoiceId.toString(), "test-partner",
                Instant.now(), InvoiceEvent.SCHEMA_VERSION), "PENDING", invoice);
        TestKafka.send(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), TestKafka.record(e));
        return address;
    }

    static void awaitRegistered(WatcherLedger ledger, String chain, String address) {
        Awaitility.await("the watcher registering " + address + " on " + chain).atMost(Duration.ofSeconds(30))
                .until(() -> ledger.depositsSince(chain, 0, 1_000_000).await().atMost(Duration.ofSeconds(10)).stream()
                        .anyMatch(d -> d.address().equals(address.toLowerCase(Locale.ROOT))));
    }
}
