package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.JsonRequest;
import dev.agentpay.mandate.config.MandateConfig;
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
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** The partner mandate API: create, sign, start, complete, dispute and read mandates. */
@Path("/v1/mandates")
@PartnerAuthenticated
@Produces(MediaType.APPLICATION_JSON)
public class MandateResource {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
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
    public Uni<Response> create(@RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, String body) {
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
    public Uni<Response> get(@RestPath String id) {
        return service.get(partner.id(), id).map(Responses::ok);
    }

    @POST
    @Path("/{id}/sign")
    public Uni<Response> sign(@RestPath String id, @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, String body) {
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
    public Uni<Response> start(@RestPath String id, @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), true, Set.of("triggered_by"));
        String triggeredBy = triggeredBy(req);
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/start", body);
        return service.start(partner.id(), key, id, triggeredBy).map(Responses::of);
    }

    @POST
    @Path("/{id}/complete")
    public Uni<Response> complete(@RestPath String id, @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), true, Set.of("triggered_by"));
        String triggeredBy = triggeredBy(req);
        var key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/complete", body);
        return service.complete(partner.id(), key, id, triggeredBy).map(Responses::of);
    }

    @POST
    @Path("/{id}/dispute")
    public Uni<Response> dispute(@RestPath String id, @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RestHeader(IDEMPOTENCY_KEY) String idemKey, String body) {
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
