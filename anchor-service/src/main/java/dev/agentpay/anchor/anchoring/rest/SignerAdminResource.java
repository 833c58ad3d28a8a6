package dev.agentpay.anchor.anchoring.rest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.anchor.anchoring.domain.Rotation;
import dev.agentpay.anchor.anchoring.service.SignerRotation;
import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.rest.Envelope;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Operator endpoints ({@code x-admin-key}; not routed by the public gateway) for the anchor signer: its
 * history and a rotation to the configured next key with an overlap (README, "Signer rotation").
 */
@Path("/admin/v1/anchor/signers")
@AdminOnly
@Tag(name = "Admin: anchor signers")
@Produces(MediaType.APPLICATION_JSON)
public class SignerAdminResource {

    private static final String UNAUTHORIZED = "missing or invalid `x-admin-key` (`unauthorized`)";

    @Inject
    SignerRotation rotation;

    /** One rotation: who handed over to whom, and the two transactions that opened and closed the overlap. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record RotationView(long id, String fromSigner, String toSigner, long chainId, String contract,
            @Schema(enumeration = {"authorising", "draining", "retiring", "done"}) String status, String requestedAt,
            Long authoriseNonce, String authorisedTx, Long authorisedBlock, String switchedAt, Long retireNonce, String retiredTx,
            Long retiredBlock, String doneAt) {

        static RotationView of(Rotation r) {
            return r == null ? null : new RotationView(r.id(), r.fromSigner(), r.toSigner(), r.chainId(), r.contract(),
                    r.status().toLowerCase(java.util.Locale.ROOT), time(r.requestedAt()), r.authoriseNonce(), r.authorisedTx(),
                    r.authorisedBlock(), time(r.switchedAt()), r.retireNonce(), r.retiredTx(), r.retiredBlock(), time(r.doneAt()));
        }
    }

    /** The signer that signs new anchors, the next key held (if any), the rotation in progress and every rotation so far. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record SignersView(String active, String next, RotationView inProgress, List<RotationView> rotations) {
    }

    @GET
    @Operation(operationId = "listAnchorSigners", summary = "The anchor signer, the next key and the rotations so far")
    @APIResponse(responseCode = "200", description = "the signers", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SignersView.class)))
    @APIResponse(responseCode = "401", description = UNAUTHORIZED)
    public Uni<Envelope<SignersView>> listAnchorSigners() {
        return rotation.signers().map(s -> Envelope.of(new SignersView(s.active(), s.next(), RotationView.of(s.open()),
                s.rotations().stream().map(RotationView::of).toList())));
    }

    @POST
    @Path("/rotate")
    @Operation(operationId = "rotateAnchorSigner", summary = "Rotate the anchor signer to the configured next key",
            description = "Accepted at once and carried out by the signing instance: the current signer authorises the next"
                    + " on the contract (addSigner), the next signs every new anchor, the current one's open transactions are"
                    + " confirmed, then the next removes it (removeSigner). No transition is anchored twice or skipped. Follow"
                    + " it with listAnchorSigners.")
    @APIResponse(responseCode = "202", description = "the rotation, status `authorising`", content = @Content(
            mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = RotationView.class)))
    @APIResponse(responseCode = "401", description = UNAUTHORIZED)
    @APIResponse(responseCode = "409", description = "`rotation_in_progress` (the message says what it waits for: the addSigner"
            + " transaction, the outgoing signer's open transactions with their nonces, or removeSigner), `no_next_signer` (no"
            + " `ANCHOR_NEXT_SIGNER_KEY` configured), `signer_retired` (the next key was rotated out before), `contract_cannot_rotate` (a contract of an earlier build"
            + " with one immutable signer); nothing changes")
    @APIResponse(responseCode = "503", description = "`anchor_chain_unavailable`: the anchor network's RPC does not answer; nothing changes")
    public Uni<Response> rotateAnchorSigner() {
        return rotation.request().map(r -> Response.status(202).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Envelope.of(RotationView.of(r))).build());
    }

    private static String time(Instant t) {
        return t == null ? null : t.toString();
    }
}
