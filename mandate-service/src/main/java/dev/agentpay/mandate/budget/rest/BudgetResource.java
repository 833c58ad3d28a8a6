package dev.agentpay.mandate.budget.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.mandate.budget.domain.BudgetViews;
import dev.agentpay.mandate.budget.rest.BudgetApi.CreateChargeRequest;
import dev.agentpay.mandate.budget.service.BudgetService;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import dev.agentpay.mandate.mandates.rest.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** Charges against a mandate's budget, and the budget itself (the owning partner only). */
@Path("/v1")
@PartnerAuthenticated
@Tag(name = "Mandates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class BudgetResource {

    @Inject
    BudgetService service;

    @Inject
    IdempotencyService idempotency;

    @Inject
    CurrentPartner partner;

    @POST
    @Path("/mandates/{id}/charges")
    @Operation(operationId = "createCharge", summary = "Charge a mandate's budget: reserve the amount and create its invoice")
    @APIResponse(responseCode = "201", description = "reserved, with its invoice (paymentDetails: where to pay); a replay "
            + "with the same Idempotency-Key and body answers the first answer with `Idempotent-Replayed: true`",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = BudgetApi.ChargeCreated.class)))
    @APIResponse(responseCode = "400", description = "bad input naming the field (`validation_error`, `invalid_json`, "
            + "`invalid_body`, `unsupported_chain`), or invoice-service's refusal of the invoice "
            + "(`chain_not_configured`); nothing is reserved")
    @APIResponse(responseCode = "404", description = "no such mandate for this partner (`mandate_not_found`)")
    @APIResponse(responseCode = "409", description = "`budget_exceeded` (the error carries `remaining`), `charge_over_limit` "
            + "(over max_per_charge), `mandate_not_active` (not signed by every party or in progress, or expired), "
            + "`no_budget`, `idempotency_key_reused` (the key was used with another body)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = BudgetApi.BudgetExceededError.class)))
    @APIResponse(responseCode = "503", description = "`charge_pending`: reserved, but invoice-service did not answer; retry "
            + "with the same Idempotency-Key (the charge completes or is released within a minute)")
    public Uni<Response> createCharge(@RestPath String id, @RestHeader("Idempotency-Key") String idemKey,
            @Valid @NotNull CreateChargeRequest body) {
        IdempotencyService.Key key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/charges", body);
        return service.charge(partner.id(), id, key, body.toNewCharge()).map(Responses::of)
                .onFailure(BudgetService.BudgetExceeded.class).recoverWithItem(e -> {
                    BudgetService.BudgetExceeded x = (BudgetService.BudgetExceeded) e;
                    return Responses.error(409, x.code(), x.getMessage(), "remaining", x.remaining());
                });
    }

    @GET
    @Path("/mandates/{id}/budget")
    @Operation(operationId = "getMandateBudget", summary = "Read a mandate's budget: the current period and its charges")
    @APIResponse(responseCode = "200", description = "the budget's current period (reserved, spent, remaining) and a page "
            + "of charges, newest first", content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = BudgetViews.Budget.class)))
    @APIResponse(responseCode = "400", description = "`validation_error`: `limit` or `cursor` malformed")
    @APIResponse(responseCode = "404", description = "`mandate_not_found` (unknown, or another partner's), `no_budget` "
            + "(the mandate was created without one)")
    public Uni<Response> getMandateBudget(@RestPath String id,
            @Parameter(description = PageLimit.DESCRIPTION + " (default 50, at most 200)") @QueryParam("limit")
            @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER) String limit,
            @Parameter(description = "`next_cursor` of the previous page") @QueryParam("cursor")
            @Size(max = 64, message = "is not a cursor returned by this API") String cursor) {
        return service.budget(partner.id(), id, limit, cursor)
                .map(Responses::ok);
    }
}
