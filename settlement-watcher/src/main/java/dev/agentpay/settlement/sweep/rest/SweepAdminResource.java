package dev.agentpay.settlement.sweep.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.settlement.sweep.domain.SweepBatch;
import dev.agentpay.settlement.sweep.service.Sweeper;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.List;

/**
 * Operator view of the sweep ledger (header {@code x-admin-key}; not routed by the public gateway): per
 * chain what deposit addresses received, what was swept to the seller wallet and what they still hold,
 * plus the latest sweeps with their state (a FAILED one with its error).
 */
@Path("/admin/sweeps")
@Produces(MediaType.APPLICATION_JSON)
@AdminOnly
@Tag(name = "Admin: sweeps")
public class SweepAdminResource {

    @Inject
    Sweeper sweeper;

    /** Per chain: what deposit addresses received, what was swept, what they hold (atomic units as decimal text). */
    public record ChainTotals(String chain, String receivedAtomic, String sweptAtomic, String heldAtomic, long openSweeps,
            long failedSweeps) {
    }

    /** One sweep batch; a FAILED one with its error. */
    public record SweepView(String id, String chain, String state, String txHash, Long nonce, int addresses,
            String sweptAtomic, int attempts, String lastError, String createdAt) {

        static SweepView of(SweepBatch b) {
            return new SweepView(b.id().toString(), b.chain(), b.state(), b.txHash(), b.nonce(), b.addresses().size(),
                    b.swept() == null ? null : b.swept().toString(), b.attempts(), b.lastError(), b.createdAt().toString());
        }
    }

    public record Sweeps(List<ChainTotals> chains, List<SweepView> sweeps) {
    }

    @GET
    @Operation(operationId = "listSweeps", summary = "Read the sweep ledger: totals per chain and recent sweeps (operator)")
    public Uni<Envelope<Sweeps>> sweeps(@Parameter(description = PageLimit.DESCRIPTION) @QueryParam("limit")
            @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER) String limit) {
        int n = PageLimit.of(limit, 50, 500);
        return sweeper.totals().flatMap(totals -> sweeper.recent(n).map(batches -> Envelope.of(new Sweeps(
                totals.stream().map(t -> new ChainTotals(t.chain(), t.received().toString(), t.swept().toString(),
                        t.held().toString(), t.openBatches(), t.failedBatches())).toList(),
                batches.stream().map(SweepView::of).toList()))));
    }
}
