package dev.agentpay.commons.events;

import java.util.List;

/**
 * Every Kafka topic of the service set, in one place. Keys are chosen so that one aggregate's events
 * stay on one partition and therefore in order.
 */
public final class Topics {

    /** {@code mandate.*} state changes, keyed by mandate id; produced by mandate-service. */
    public static final String MANDATE_EVENTS = "mandate-events";
    /** Anchor receipts for mandate transitions, keyed by mandate id; produced by anchor-service. */
    public static final String ANCHOR_RECEIPTS = "anchor-receipts";
    /** USDC transfers detected (or retracted) on a chain, keyed by {@code chain:txHash}; produced by settlement-watcher. */
    public static final String CHAIN_TRANSFERS = "chain-transfers";
    /** {@code invoice.*} state changes, keyed by invoice id; produced by invoice-service. */
    public static final String INVOICE_EVENTS = "invoice-events";
    /** Platform-wide events such as {@code disco.benchmark.published}, keyed by document id; produced by discovery-service. */
    public static final String PLATFORM_EVENTS = "platform-events";
    /** The partner registry, compacted, keyed by partner id; produced by mandate-service (partner administration). */
    public static final String PARTNERS = "partners";
    /** MandateEscrow events and command failures (issue 30), from settlement-watcher; key: mandate hash. */
    public static final String ESCROW_EVENTS = "escrow-events";
    /** MandateEscrow operator commands (release, freeze, resolve) from mandate-service; key: mandate hash. */
    public static final String ESCROW_COMMANDS = "escrow-commands";

    /**
     * The dead-letter topic of one consumer ({@code dlt.<service>.<topic it reads>}): records it can never
     * apply (undecodable, invalid), with the reason and their origin in {@code dead-letter-*} headers
     * (service-commons {@code Consumers}). Kept 30 days for an operator to inspect and replay.
     */
    public static String deadLetter(String service, String topic) {
        return "dlt." + service + "." + topic;
    }

    public static final String DLT_ANCHOR_MANDATE_EVENTS = deadLetter("anchor-service", MANDATE_EVENTS);
    public static final String DLT_MANDATE_ANCHOR_RECEIPTS = deadLetter("mandate-service", ANCHOR_RECEIPTS);
    /** mandate-service's invoice-events consumer (charges settled or released by their invoices). */
    public static final String DLT_MANDATE_INVOICE_EVENTS = deadLetter("mandate-service", INVOICE_EVENTS);
    public static final String DLT_INVOICE_CHAIN_TRANSFERS = deadLetter("invoice-service", CHAIN_TRANSFERS);
    public static final String DLT_DISCOVERY_MANDATE_EVENTS = deadLetter("discovery-service", MANDATE_EVENTS);
    public static final String DLT_DISCOVERY_ANCHOR_RECEIPTS = deadLetter("discovery-service", ANCHOR_RECEIPTS);
    public static final String DLT_DISCOVERY_INVOICE_EVENTS = deadLetter("discovery-service", INVOICE_EVENTS);
    public static final String DLT_WEBHOOK_MANDATE_EVENTS = deadLetter("webhook-dispatcher", MANDATE_EVENTS);
    public static final String DLT_WEBHOOK_INVOICE_EVENTS = deadLetter("webhook-dispatcher", INVOICE_EVENTS);
    public static final String DLT_WEBHOOK_PLATFORM_EVENTS = deadLetter("webhook-dispatcher", PLATFORM_EVENTS);
    public static final String DLT_WATCHER_INVOICE_EVENTS = deadLetter("settlement-watcher", INVOICE_EVENTS);
    public static final String DLT_PARTNERS = deadLetter("all-services", PARTNERS);
    public static final String DLT_WATCHER_ESCROW_COMMANDS = deadLetter("settlement-watcher", ESCROW_COMMANDS);
    public static final String DLT_MANDATE_ESCROW_EVENTS = deadLetter("mandate-service", ESCROW_EVENTS);
    /** invoice-service's escrow-events consumer (charge invoices settled by escrow releases, issue 30). */
    public static final String DLT_INVOICE_ESCROW_EVENTS = deadLetter("invoice-service", ESCROW_EVENTS);

    /** Partitions and clean-up policy of one topic; the launcher, the tests and the Helm chart create topics from this. */
    public record TopicSpec(String name, int partitions, boolean compacted, long retentionMs) {
    }

    private static final long SEVEN_DAYS_MS = 7L * 24 * 3600 * 1000;
    private static final long THIRTY_DAYS_MS = 30L * 24 * 3600 * 1000;

    private static TopicSpec dlt(String name) {
        return new TopicSpec(name, 1, false, THIRTY_DAYS_MS);
    }

    /** All topics with their production settings. */
    public static final List<TopicSpec> ALL = List.of(
            new TopicSpec(MANDATE_EVENTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(ANCHOR_RECEIPTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(CHAIN_TRANSFERS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(INVOICE_EVENTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(PLATFORM_EVENTS, 1, false, SEVEN_DAYS_MS),
            new TopicSpec(PARTNERS, 1, true, -1),
            new TopicSpec(ESCROW_EVENTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(ESCROW_COMMANDS, 6, false, SEVEN_DAYS_MS),
            dlt(DLT_ANCHOR_MANDATE_EVENTS),
            dlt(DLT_MANDATE_ANCHOR_RECEIPTS),
            dlt(DLT_MANDATE_INVOICE_EVENTS),
            dlt(DLT_INVOICE_CHAIN_TRANSFERS),
            dlt(DLT_DISCOVERY_MANDATE_EVENTS),
            dlt(DLT_DISCOVERY_ANCHOR_RECEIPTS),
            dlt(DLT_DISCOVERY_INVOICE_EVENTS),
            dlt(DLT_WEBHOOK_MANDATE_EVENTS),
            dlt(DLT_WEBHOOK_INVOICE_EVENTS),
            dlt(DLT_WEBHOOK_PLATFORM_EVENTS),
            dlt(DLT_WATCHER_INVOICE_EVENTS),
            dlt(DLT_PARTNERS),
            dlt(DLT_WATCHER_ESCROW_COMMANDS),
            dlt(DLT_MANDATE_ESCROW_EVENTS),
            dlt(DLT_INVOICE_ESCROW_EVENTS));

    private Topics() {
    }
}
