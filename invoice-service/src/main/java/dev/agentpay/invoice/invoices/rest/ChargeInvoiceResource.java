package dev.agentpay.invoice.invoices.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import dev.agentpay.invoice.invoices.domain.NewInvoice;
import dev.agentpay.commons.chains.KnownChain;
import dev.agentpay.invoice.invoices.rest.InvoiceConstraints.UsdcAmount;
import dev.agentpay.invoice.invoices.service.InvoiceService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/**
 * The invoice of a charge against a mandate's budget (issue 28), for mandate-service only (operator key; the
 * gateway does not route {@code /admin}). Idempotent by the charge id: the first call creates the invoice, every
 * later one returns it unchanged (README, "Charge invoices").
 */
@Path("/admin/charges")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@AdminOnly
@Tag(name = "Admin: charge invoices")
public class ChargeInvoiceResource {

    @Inject
    InvoiceService invoices;

    /** What mandate-service sends: the charge's partner, mandate and invoice fields. */
    @Schema(name = "ChargeInvoiceRequest", additionalProperties = Schema.False.class)
    public record ChargeInvoiceRequest(
            @NotNull @NotBlank @Size(max = 64) @Schema(required = true) String partnerId,
            @NotNull @NotBlank @Size(max = 64) @Schema(required = true) String mandateId,
            @NotNull @UsdcAmount @Schema(required = true, examples = "0.1") BigDecimal amount,
            @NotNull @KnownChain @Schema(required = true, enumeration = {"base", "skale", "polygon", "arbitrum", "solana"}) String chain,
            @Size(max = 1000) String description,
            @Schema(format = "date-time", description = "the invoice's deadline; absent: the default lifetime") String expiresAt) {

        NewInvoice toNewInvoice() {
            Instant at = null;
            if (expiresAt != null) {
                try {
                    at = Instant.parse(expiresAt);
                } catch (DateTimeParseException e) {
                    throw dev.agentpay.commons.error.ApiException.invalidField("expiresAt", "must be an ISO 8601 UTC timestamp");
                }
            }
            String d = description == null || description.isBlank() ? null : description.trim();
            return new NewInvoice(amount.setScale(6), "USDC", null, null, d, Chain.of(chain).orElseThrow(), at);
        }
    }

    @PUT
    @Path("/{chargeId}/invoice")
    @Operation(operationId = "putChargeInvoice", summary = "Create or return the invoice of a mandate charge (mandate-service only)")
    @APIResponse(responseCode = "201", description = "created", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "200", description = "the invoice this charge already has (a repeat)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "400", description = "`validation_error` naming the field, `unsupported_chain`, "
            + "`chain_not_configured`: no invoice is created")
    @APIResponse(responseCode = "409", description = "`charge_invoice_conflict`: the charge has an invoice for another "
            + "partner, mandate or amount")
    public Uni<Response> putChargeInvoice(@RestPath @Pattern(regexp = "^chg_[0-9a-f-]{36}$", message = "must be a charge id")
            String chargeId, @Valid @NotNull ChargeInvoiceRequest body) {
        return invoices.invoiceForCharge(chargeId, body.partnerId(), body.mandateId(), body.toNewInvoice())
                .map(r -> Response.status(r.created() ? 201 : 200).entity(Envelope.of(r.invoice())).build());
    }
}
