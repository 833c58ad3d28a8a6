package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * What consumers of {@code invoice-events} read of an {@link InvoiceEvent}'s invoice, typed (issue 33 item 9): the
 * event carries the whole Invoice object as the API shows it (the webhook {@code data}, which stays as it is), and a
 * consumer reads this view instead of string paths into that object. The fields are those of
 * {@code InvoiceEvent.SCHEMA_VERSION} 1; a field a later version adds is ignored here until a consumer needs it, and a
 * field an earlier producer did not write reads as null ({@code EventWireFormatTest} reads the pinned payloads of every
 * version through this view). Scalars are read as text (amounts exactly as written), so a payload of any version reads
 * without a number-format failure; a consumer that needs a number parses the field it uses.
 *
 * @param chargeId the mandate charge this invoice belongs to (issue 28), or null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record InvoiceView(
        String id,
        String status,
        String amount,
        String currency,
        String createdAt,
        String expiresAt,
        String chargeId,
        String mandateId,
        PaymentDetails paymentDetails) {

    /** Where and how the invoice is paid ({@code paymentDetails}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PaymentDetails(String chain, String networkId, String paymentAddress, String usdcAddress,
            String payableAmount, String payableAtomic, String memo, String txHash, String settlementSource) {
    }

    /** The view of an event's invoice object; null for none, or for a value that is no Invoice object. */
    static InvoiceView of(JsonNode invoice) {
        if (invoice == null || invoice.isNull() || invoice.isMissingNode()) {
            return null;
        }
        try {
            return EventCodec.mapper().treeToValue(invoice, InvoiceView.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            // not an Invoice object (no producer writes one): read as no invoice, which every consumer skips, as the
            // string paths it replaces read missing nodes
            return null;
        }
    }
}
