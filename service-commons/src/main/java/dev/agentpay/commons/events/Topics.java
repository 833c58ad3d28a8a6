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

    /** Partitions and clean-up policy of one topic; the launcher, the tests and the Helm chart create topics from this. */
    public record TopicSpec(String name, int partitions, boolean compacted, long retentionMs) {
    }

    private static final long SEVEN_DAYS_MS = 7L * 24 * 3600 * 1000;

    /** All topics with their production settings. */
    public static final List<TopicSpec> ALL = List.of(
            new TopicSpec(MANDATE_EVENTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(ANCHOR_RECEIPTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(CHAIN_TRANSFERS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(INVOICE_EVENTS, 6, false, SEVEN_DAYS_MS),
            new TopicSpec(PLATFORM_EVENTS, 1, false, SEVEN_DAYS_MS),
            new TopicSpec(PARTNERS, 1, true, -1));

    private Topics() {
    }
}
