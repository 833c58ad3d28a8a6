package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.service.PartnerService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** Operator endpoints ({@code x-admin-key}) that issue, import, rotate, revoke and list partners. */
@Path("/admin/partners")
@AdminOnly
@Produces(MediaType.APPLICATION_JSON)
public class PartnerAdminResource {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final int NAME_MAX = 200;
    private static final int SECRET_MIN = 16;
    private static final int SECRET_MAX = 512;

    @Inject
    PartnerService service;

    @Inject
    MandateConfig config;

    @POST
    public Uni<Response> create(@RestHeader(HttpHeaders.CONTENT_TYPE) String contentType, String body) {
        JsonRequest req = JsonRequest.parse(contentType, body, config.maxBodyBytes(), false, Set.of("name"));
        return service.create(req.requiredString("name", NAME_MAX)).map(Responses::of);
    }

    @PUT
    @Path("/{id}")
    public Uni<Response> importPartner(@RestPath String id, @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            String body) {
        if (!ID.matcher(id).matches()) {
            throw ApiException.invalidField("id", "must be 1 to 64 characters of letters, digits, '_', '.', '-'");
        }
        JsonRequest req = JsonRequest.parse(contentType, body, config.maxBodyBytes(), false,
                Set.of("name", "api_key", "signing_secret", "status"));
        String name = req.requiredString("name", NAME_MAX);
        String apiKey = req.requiredString("api_key", 67);
        if (!ApiKeys.wellFormed(apiKey)) {
            throw ApiException.invalidField("api_key", "must be sk_ followed by 64 lowercase hex characters");
        }
        String secret = req.requiredString("signing_secret", SECRET_MAX);
        if (secret.length() < SECRET_MIN || !secret.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ApiException.invalidField("signing_secret",
                    "must be " + SECRET_MIN + " to " + SECRET_MAX + " visible ASCII characters");
        }
        String status = req.optionalString("status", 16);
        if (status == null) {
            status = PartnerService.ACTIVE;
        } else if (!PartnerService.ACTIVE.equals(status) && !PartnerService.REVOKED.equals(status)) {
            throw ApiException.invalidField("status", "must be \"active\" or \"revoked\"");
        }
        return service.importPartner(id, name, apiKey, secret, status).map(Responses::of);
    }

    @GET
    public Uni<Response> list() {
        return service.list().map(Responses::ok);
    }

    @GET
    @Path("/{id}")
    public Uni<Response> get(@RestPath String id) {
        return service.get(id).map(Responses::ok);
    }

    @POST
    @Path("/{id}/rotate-key")
    public Uni<Response> rotateKey(@RestPath String id) {
        return service.rotateKey(id).map(Responses::of);
    }

    @POST
    @Path("/{id}/rotate-signing-secret")
    public Uni<Response> rotateSigningSecret(@RestPath String id) {
        return service.rotateSigningSecret(id).map(Responses::of);
    }

    @POST
    @Path("/{id}/revoke")
    public Uni<Response> revoke(@RestPath String id) {
        return service.revoke(id).map(Responses::of);
    }
}
