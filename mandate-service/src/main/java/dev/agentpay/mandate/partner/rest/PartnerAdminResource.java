package dev.agentpay.mandate.partner.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.mandate.partner.domain.PartnerRules;
import dev.agentpay.mandate.partner.domain.PartnerView;
import dev.agentpay.mandate.mandates.rest.MandateApi.CreatePartnerRequest;
import dev.agentpay.mandate.mandates.rest.MandateApi.ImportPartnerRequest;
import dev.agentpay.mandate.partner.service.PartnerService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;
import dev.agentpay.mandate.mandates.rest.Responses;

/** Operator endpoints ({@code x-admin-key}) that issue, import, rotate, revoke and list partners. */
@Path("/admin/partners")
@AdminOnly
@Tag(name = "Admin: partners")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class PartnerAdminResource {

    private static final String NOT_FOUND = "no such partner (`partner_not_found`)";

    @Inject
    PartnerService service;

    @POST
    @Operation(operationId = "createPartner", summary = "Issue a partner with its API key and signing secret (operator)")
    @APIResponse(responseCode = "201", description = "issued; api_key and signing_secret are shown once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    public Uni<Response> create(@Valid @NotNull CreatePartnerRequest body) {
        return service.create(body.name()).map(Responses::of);
    }

    @PUT
    @Operation(operationId = "importPartner", summary = "Import a partner with its existing key and secret (operator)")
    @APIResponse(responseCode = "409", description = "the api_key belongs to another partner (`api_key_in_use`)")
    @APIResponse(responseCode = "200", description = "already present with this key", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "201", description = "imported", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @Path("/{id}")
    public Uni<Response> importPartner(@RestPath @Pattern(regexp = PartnerRules.ID_PATTERN, message = PartnerRules.ID_RULE) String id,
            @Valid @NotNull ImportPartnerRequest body) {
        String status = body.status() == null || body.status().isBlank() ? null : body.status();
        return service.importPartner(id, body.name(), body.apiKey(), body.signingSecret(), PartnerRules.status(status))
                .map(Responses::of);
    }

    @GET
    @Operation(operationId = "listPartners", summary = "List every partner (operator)")
    @APIResponse(responseCode = "200", description = "every partner", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = PartnerView.class)))
    public Uni<Response> list() {
        return service.list().map(Responses::ok);
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "getPartner", summary = "Read one partner (operator)")
    @APIResponse(responseCode = "200", description = "the partner", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    public Uni<Response> get(@RestPath String id) {
        return service.get(id).map(Responses::ok);
    }

    /**
     * {@code rotate-key} (the new {@code api_key}, shown once; the old key is invalid at once),
     * {@code rotate-signing-secret} (the new {@code signing_secret}, shown once) or {@code revoke} (a repeat is
     * a no-op).
     */
    @POST
    @Path("/{id}/{action: rotate-key|rotate-signing-secret|revoke}")
    @Operation(operationId = "changePartnerCredentials", summary = "Rotate a partner's key or signing secret, or revoke it (operator)")
    @APIResponse(responseCode = "200", description = "done; a rotation shows the new value once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = NOT_FOUND)
    @APIResponse(responseCode = "409", description = "a revoked partner cannot rotate (`partner_revoked`)")
    public Uni<Response> act(@RestPath String id, @RestPath @Parameter(schema = @Schema(enumeration = {"rotate-key",
            "rotate-signing-secret", "revoke"})) String action) {
        var result = switch (action) {
            case "rotate-key" -> service.rotateKey(id);
            case "rotate-signing-secret" -> service.rotateSigningSecret(id);
            default -> service.revoke(id);
        };
        return result.map(Responses::of);
    }
}
