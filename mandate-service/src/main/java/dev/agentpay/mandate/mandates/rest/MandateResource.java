package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import dev.agentpay.mandate.mandates.domain.MandateView;
import dev.agentpay.mandate.mandates.rest.MandateApi.CreateMandateRequest;
import dev.agentpay.mandate.mandates.rest.MandateApi.DisputeRequest;
import dev.agentpay.mandate.mandates.rest.MandateApi.SignRequest;
import dev.agentpay.mandate.mandates.rest.MandateApi.TransitionRequest;
import dev.agentpay.mandate.mandates.service.MandateQueries;
import dev.agentpay.mandate.mandates.service.MandateService;
import dev.agentpay.mandate.receipt.domain.ReceiptView;
import dev.agentpay.mandate.receipt.service.ReceiptService;
import dev.agentpay.mandate.signing.JsDate;
import dev.agentpay.mandate.signing.SignatureScheme;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/**
 * The partner API: create, sign, start, complete, dispute and read mandates, and read the DRS receipts
 * issued when a mandate's counterparty signs (the owning partner only). Bodies are typed records
 * ({@link MandateApi}) bound and validated before a method runs.
 */
@Path("/v1")
@PartnerAuthenticated
@Tag(name = "Mandates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MandateResource {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final String NOT_FOUND = "no such mandate for this partner (`mandate_not_found`)";
    private static final String CONFLICT = "the mandate is not in a state that allows this (`invalid_transition`, "
            + "`expired`, ...) or the Idempotency-Key was used for another body";

    @Inject
    MandateService service;

    @Inject
    MandateQueries queries;

    @Inject
    ReceiptService receipts;

    @Inject
    IdempotencyService idempotency;

    @Inject
    CurrentPartner partner;

    @Inject
    dev.agentpay.mandate.budget.config.BudgetConfig budgetConfig;

    /** One state-changing operation of the mandate API, given the request's idempotency key. */
    @FunctionalInterface
    interface Operation {
        Uni<ApiResult> run(String partnerId, IdempotencyService.Key key);
    }

    /** Runs {@code op} under the request's Idempotency-Key, fingerprinted by method, path and the bound body. */
    private Uni<Response> run(String path, String idemKey, Object body, Operation op) {
        return op.run(partner.id(), idempotency.key(idemKey, "POST", path, body)).map(Responses::of);
    }

    @Scopes.MandatesWrite
    @POST
    @Path("/mandates")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "createMandate", summary = "Propose a mandate to a counterparty")
    @APIResponse(responseCode = "201", description = "created; the proposer signs next", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Created.class)))
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> create(@RestHeader(IDEMPOTENCY_KEY) String idemKey, @Valid @NotNull CreateMandateRequest body) {
        var cmd = new MandateService.NewMandate(body.proposer(), body.counterparty(), body.scope(), body.terms(),
                body.contextJson(), JsDate.parse(body.expiry()), body.hmacScheme(), body.signedParties(),
                body.budget() == null ? null : body.budget().terms(budgetConfig.minPeriod(), budgetConfig.maxPeriod()));
        return run("/v1/mandates", idemKey, body, (p, key) -> service.create(p, key, cmd));
    }

    @Scopes.MandatesRead
    @GET
    @Path("/mandates")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "listMandates", summary = "List your mandates",
            description = "The partner's mandates, newest first, optionally of one state; `nextCursor` gives the next page."
                    + " Items carry no `transitions`: read one mandate for its timeline.")
    @APIResponse(responseCode = "200", description = "a page of mandates", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = dev.agentpay.mandate.mandates.domain.MandatePage.class)))
    @APIResponse(responseCode = "400", description = "`limit` not a whole number from 1 to 100, an unknown `state` or a `cursor` this API did"
            + " not return (`validation_error`)")
    public Uni<Response> list(
            @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(description = dev.agentpay.commons.rest.PageLimit.DESCRIPTION
                    + " (50, at most 100)") @jakarta.ws.rs.QueryParam("limit")
            @jakarta.validation.constraints.Pattern(regexp = dev.agentpay.commons.rest.PageLimit.WHOLE_NUMBER,
                    message = dev.agentpay.commons.rest.PageLimit.NOT_A_WHOLE_NUMBER) String limit,
            @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(description = "`nextCursor` of the previous page")
            @jakarta.ws.rs.QueryParam("cursor") @jakarta.validation.constraints.Size(max = 200, message = "is not a cursor returned by this API")
            String cursor,
            @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(description = "only mandates in this state (`proposed`,"
                    + " `signed_by_proposer`, `partially_signed`, `signed_by_both`, `signed_by_all`, `in_progress`, `completed`,"
                    + " `disputed`, `resolved`, `expired`)")
            @jakarta.ws.rs.QueryParam("state") @jakarta.validation.constraints.Pattern(regexp = "\\s*(proposed|signed_by_proposer|partially_signed|"
                    + "signed_by_both|signed_by_all|in_progress|completed|disputed|resolved|expired)?\\s*",
                    message = "must be a mandate state (proposed, signed_by_proposer, partially_signed, signed_by_both,"
                            + " signed_by_all, in_progress, completed, disputed, resolved, expired)") String state) {
        dev.agentpay.mandate.mandates.domain.MandateState only = state == null || state.isBlank() ? null
                : dev.agentpay.mandate.mandates.domain.MandateState.fromWire(state.trim());
        return queries.list(partner.id(), dev.agentpay.commons.rest.PageLimit.of(limit, 50, 100), cursor, only)
                .map(page -> Response.ok(dev.agentpay.commons.rest.Envelope.of(page)).build());
    }

    @GET
    @Path("/mandates/{id}")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "getMandate", summary = "Read one of your mandates with its timeline")
    @APIResponse(responseCode = "200", description = "the mandate", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<Response> get(@RestPath String id) {
        return queries.get(partner.id(), id).map(Responses::ok);
    }

    @Scopes.MandatesSign
    @POST
    @Path("/mandates/{id}/sign")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "signMandate", summary = "Sign a mandate as one of its parties (HMAC or EIP-712)")
    @APIResponse(responseCode = "403", description = "the signature does not verify for this signer (`invalid_signature`), or the credential lacks the scope (`insufficient_scope`)")
    @APIResponse(responseCode = "200", description = "signed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Signed.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> sign(@RestPath String id, @RestHeader(IDEMPOTENCY_KEY) String idemKey,
            @Valid @NotNull SignRequest body) {
        String signer = body.role();
        if (signer == null) {
            throw ApiException.badRequest("invalid_signer", "signer must be \"proposer\" or \"counterparty\" (or, for a "
                    + "mandate created with parties, one of its roles)");
        }
        if (body.signature() == null || body.signature().isBlank()) {
            throw ApiException.badRequest("missing_signature", "signature is required");
        }
        SignatureScheme scheme = SignatureScheme.fromWire(body.scheme());
        return run("/v1/mandates/" + id + "/sign", idemKey, body,
                (p, key) -> service.sign(p, key, id, signer, body.signature(), scheme));
    }

    @Scopes.MandatesWrite
    @POST
    @Path("/mandates/{id}/start")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "startMandate", summary = "Start work on a mandate both parties signed")
    @APIResponse(responseCode = "200", description = "started", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.StateChanged.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> start(@RestPath String id, @RestHeader(IDEMPOTENCY_KEY) String idemKey,
            @RequestBody(required = false) @Valid TransitionRequest body) {
        return transition(id, "start", idemKey, body, service::start);
    }

    @Scopes.MandatesWrite
    @POST
    @Path("/mandates/{id}/complete")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "completeMandate", summary = "Mark a mandate completed")
    @APIResponse(responseCode = "200", description = "completed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Completed.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> complete(@RestPath String id, @RestHeader(IDEMPOTENCY_KEY) String idemKey,
            @RequestBody(required = false) @Valid TransitionRequest body) {
        return transition(id, "complete", idemKey, body, service::complete);
    }

    /** {@code start} or {@code complete}: the body is optional, and so is {@code triggered_by} in it. */
    @FunctionalInterface
    interface Transition {
        Uni<ApiResult> apply(String partnerId, IdempotencyService.Key key, String mandateId, String triggeredBy);
    }

    private Uni<Response> transition(String id, String action, String idemKey, TransitionRequest body, Transition t) {
        TransitionRequest req = body == null ? TransitionRequest.EMPTY : body;
        return run("/v1/mandates/" + id + "/" + action, idemKey, req,
                (p, key) -> t.apply(p, key, id, triggeredBy(req.triggeredBy())));
    }

    @Scopes.DisputesWrite
    @POST
    @Path("/mandates/{id}/dispute")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "disputeMandate", summary = "Open a dispute on a mandate, with its reason")
    @APIResponse(responseCode = "200", description = "disputed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Disputed.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> dispute(@RestPath String id, @RestHeader(IDEMPOTENCY_KEY) String idemKey,
            @Valid @NotNull DisputeRequest body) {
        return run("/v1/mandates/" + id + "/dispute", idemKey, body,
                (p, key) -> service.dispute(p, key, id, body.reason(), triggeredBy(body.triggeredBy())));
    }

    /** A DRS receipt, issued when a mandate's counterparty signs. */
    @Scopes.MandatesRead
    @GET
    @Path("/receipts/{id}")
    @org.eclipse.microprofile.openapi.annotations.Operation(operationId = "getReceipt", summary = "Read a DRS receipt issued when both parties signed")
    @Tag(name = "Receipts")
    @APIResponse(responseCode = "200", description = "the DRS receipt", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReceiptView.class)))
    @APIResponse(responseCode = "404", description = "no such receipt for this partner (`receipt_not_found`)")
    public Uni<Response> receipt(@RestPath String id) {
        return receipts.receipt(partner.id(), id).map(Responses::ok);
    }

    /** Who acted: the body's {@code triggered_by}, or {@code system} when it is absent or blank. */
    private static String triggeredBy(String sent) {
        return sent == null || sent.isBlank() ? MandateService.SYSTEM : sent;
    }
}
