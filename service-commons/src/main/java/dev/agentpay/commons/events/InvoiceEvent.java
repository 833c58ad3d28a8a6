package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * An invoice change ({@code invoice.created}, {@code invoice.partially_paid}, {@code invoice.settled},
 * {@code invoice.overpaid}, {@code invoice.expired}, {@code invoice.paid_late}, {@code invoice.unsettled}).
 *
 * @param invoice the full Invoice object as the API returns it (the webhook {@code data})
 */
public record InvoiceEvent(
        @JsonUnwrapped EventHeader header,
        String status,
        JsonNode invoice) implements DomainEvent {

    public static final String CREATED = "invoice.created";
    public static final String SETTLED = "invoice.settled";
    public static final String UNSETTLED = "invoice.unsettled";
    /** A payment arrived that leaves the invoice short of its amount (it stays PENDING). */
    public static final String PARTIALLY_PAID = "invoice.partially_paid";
    /** The invoice received more than its amount ({@code excessAmount}); after or together with {@code invoice.settled}. */
    public static final String OVERPAID = "invoice.overpaid";
    /** The invoice reached its {@code expiresAt} while PENDING: it is EXPIRED and can no longer be paid. */
    public static final String EXPIRED = "invoice.expired";
    /** A payment arrived after the invoice expired (it stays EXPIRED). */
    public static final String PAID_LATE = "invoice.paid_late";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.INVOICE_EVENTS;
    }

    /** The invoice, typed: what consumers read (null when the event carries none). */
    public InvoiceView view() {
        return InvoiceView.of(invoice);
    }
}
