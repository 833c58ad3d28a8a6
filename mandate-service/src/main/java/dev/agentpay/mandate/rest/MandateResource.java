package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.commons.rest.JsonRequest;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.domain.MandateView;
import dev.agentpay.mandate.service.IdempotencyService;
import dev.agentpay.mandate.service.MandateService;
import dev.agentpay.mandate.signing.SignatureScheme;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** The partner mandate API: create, sign, start, complete, dispute and read mandates. */
@Path("/v1/mandates")
@PartnerAuthenticated
@SecurityRequirement(name = OpenApiContract.API_KEY)
@Tag(name = "Mandates")
@Produces(MediaType.APPLICATION_JSON)
public class MandateResource {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final String NOT_FOUND = "no such mandate for this partner (`mandate_not_found`)";
    private static final String CONFLICT = "the mandate is not in a state that allows this (`invalid_transition`, "
            + "`expired`, ...) or the Idempotency-Key was used for another body";
    private static final int AGENT_ID_MAX = 256;
    private static final int SCOPE_MAX = 10_000;
    private static final int TRIGGERED_BY_MAX = 256;
    private static final int REASON_MAX = 4_000;
    /** An EIP-712 signature: 0x + 130 hex digits. */
    private static final int SIGNATURE_MAX = 132;
    private static final int MAX_DEPTH = 32;

    @Inject
    MandateService service;

    @Inject
    IdempotencyService idempotency;

    @Inject
    CurrentPartner partner;

    @Inject
    MandateConfig config;

    @POST
    @APIResponse(responseCode = "201", description = "created; the proposer signs next", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Created.class)))
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> create(@Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.CreateMandateRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), false,
                Set.of("proposer", "counterparty", "scope", "terms", "expiry", "context", "signature_scheme"));
        var cmd = new MandateService.NewMandate(
                MandateFields.partyName(req, "proposer", AGENT_ID_MAX),
                MandateFields.partyName(req, "counterparty", AGENT_ID_MAX),
                req.requiredString("scope", SCOPE_MAX),
                MandateFields.requiredObjectText(req, "terms"),
                req.optionalObjectJson("context", MAX_DEPTH),
                MandateFields.requiredTimestamp(req, "expiry"),
                hmacScheme(req.optionalString("signature_scheme", 16)));
        var key = idempotency.key(idemKey, "POST", "/v1/mandates", body);
        return service.create(partner.id(), key, cmd).map(Responses::of);
    }

    @GET
    @Path("/{id}")
    @APIResponse(responseCode = "200", description = "the mandate", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<Response> get(@RestPath String id) {
        return service.get(partner.id(), id).map(Responses::ok);
    }

    @POST
    @Path("/{id}/sign")
    @APIResponse(responseCode = "200", description = "signed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.Signed.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> sign(@RestPath String id, @Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.SignRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), false,
                Set.of("signer", "signature", "scheme"));
        String signer = req.textOrNull("signer");
        if (!MandateService.SIGNER_PROPOSER.equals(signer) && !MandateService.SIGNER_COUNTERPARTY.equals(signer)) {
            throw ApiException.badRequest("invalid_signer", "signer must be \"proposer\" or \"counterparty\"");
        }
        String signature = req.optionalString("signature", Integer.MAX_VALUE);
        if (signature == null) {
            throw ApiException.badRequest("missing_signature", "signature is required");
        }
        if (signature.length() > SIGNATURE_MAX) {
            throw ApiException.invalidField("signature", "must be at most " + SIGNATURE_MAX + " characters");
        }
        String schemeName = req.optionalString("scheme", 16);
        SignatureScheme scheme = SignatureScheme.fromWire(schemeName);
        if (schemeName != null && scheme == null) {
            throw ApiException.invalidField("scheme", "must be \"hmac\", \"hmac-role\" or \"eip712\"");
        }
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/sign", body);
        return service.sign(partner.id(), key, id, signer, signature, scheme).map(Responses::of);
    }

    @POST
    @Path("/{id}/start")
    @APIResponse(responseCode = "200", description = "started", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.StateChanged.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> start(@RestPath String id, @Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.TransitionRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), true, Set.of("triggered_by"));
        String triggeredBy = triggeredBy(req);
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/start", body);
        return service.start(partner.id(), key, id, triggeredBy).map(Responses::of);
    }

    @POST
    @Path("/{id}/complete")
    @APIResponse(responseCode = "200", description = "completed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.StateChanged.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> complete(@RestPath String id, @Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, @RequestBody(required = false, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.TransitionRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), true, Set.of("triggered_by"));
        String triggeredBy = triggeredBy(req);
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/complete", body);
        return service.complete(partner.id(), key, id, triggeredBy).map(Responses::of);
    }

    @POST
    @Path("/{id}/dispute")
    @APIResponse(responseCode = "200", description = "disputed", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.StateChanged.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = CONFLICT)
    public Uni<Response> dispute(@RestPath String id, @Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.DisputeRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), false,
                Set.of("reason", "triggered_by"));
        String reason = req.requiredString("reason", REASON_MAX);
        String triggeredBy = triggeredBy(req);
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/dispute", body);
        return service.dispute(partner.id(), key, id, reason, triggeredBy).map(Responses::of);
    }

    /** The scheme of non-wallet parties: {@code hmac} (v0.1, the default) or {@code hmac-role}. */
    private static SignatureScheme hmacScheme(String name) {
        if (name == null) {
            return SignatureScheme.HMAC;
        }
        SignatureScheme s = SignatureScheme.fromWire(name);
        if (s != SignatureScheme.HMAC && s != SignatureScheme.HMAC_ROLE) {
            throw ApiException.invalidField("signature_scheme", "must be \"hmac\" or \"hmac-role\""
                    + " (a wallet party, written eip155:<chain id>:<address>, always signs with eip712)");
        }
        return s;
    }

    private static String triggeredBy(JsonRequest req) {
        String t = req.optionalString("triggered_by", TRIGGERED_BY_MAX);
        return t == null ? MandateService.SYSTEM : t;
    }
}
