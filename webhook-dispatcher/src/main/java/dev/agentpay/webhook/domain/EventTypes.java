package dev.agentpay.webhook.domain;

import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PlatformEvent;
import java.util.List;
import java.util.Set;

/** The event types a subscription may name. */
public final class EventTypes {

    /** Sent to a partner's other subscriptions when the dispatcher disables one of them. */
    public static final String WEBHOOK_DISABLED = "webhook.disabled";

    /** Every subscribable type, in the order the API lists them. */
    public static final List<String> ALL = List.of(
            "mandate.proposed",
            "mandate.signed_by_proposer",
            "mandate.partially_signed",
            "mandate.signed_by_both",
            "mandate.signed_by_all",
            "mandate.in_progress",
            "mandate.completed",
            "mandate.disputed",
            // disputes that end (issue 30): evidence (an anchored row, not a state change) and the resolution
            "mandate.dispute_evidence",
            "mandate.dispute_resolved",
            "mandate.expired",
            MandateEvent.ANCHORED,
            // charges against a mandate's budget (issue 28): data = {mandate_id, charge, budget}
            "mandate.charge_created",
            "mandate.charge_settled",
            "mandate.charge_released",
            "mandate.budget_exhausted",
            // the mandate's escrow on chain (issue 30): data = {mandate_id, escrow, escrow_event}
            "mandate.escrow_funded",
            "mandate.escrow_released",
            "mandate.escrow_refunded",
            "mandate.escrow_resolved",
            InvoiceEvent.CREATED,
            InvoiceEvent.PARTIALLY_PAID,
            InvoiceEvent.SETTLED,
            InvoiceEvent.OVERPAID,
            InvoiceEvent.EXPIRED,
            InvoiceEvent.PAID_LATE,
            InvoiceEvent.UNSETTLED,
            PlatformEvent.BENCHMARK_PUBLISHED,
            WEBHOOK_DISABLED);

    private static final Set<String> SET = Set.copyOf(ALL);

    private EventTypes() {
    }

    public static boolean known(String type) {
        return type != null && SET.contains(type);
    }
}
