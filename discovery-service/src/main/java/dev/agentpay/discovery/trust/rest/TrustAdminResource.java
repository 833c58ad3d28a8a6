package dev.agentpay.discovery.trust.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.discovery.trust.domain.TrustCounts;
import dev.agentpay.discovery.trust.repository.TrustCounterRepository;
import dev.agentpay.discovery.trust.service.TrustSignalsService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Operator trigger of the trust-signal rebuild outside the nightly schedule ({@code x-admin-key}). */
@Path("/disco/admin/trust-signals/rebuild")
@AdminOnly
@Tag(name = "Admin: discovery")
public class TrustAdminResource {

    @Inject
    TrustSignalsService service;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(operationId = "rebuildTrustSignals", summary = "Rebuild the trust signals now (operator)")
    public Uni<Envelope<TrustCounts>> rebuild() {
        return service.rebuild().map(Envelope::of);
    }
}
