package dev.agentpay.settlement.sweep.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.settlement.sweep.repository.SweepRepository;
import dev.agentpay.settlement.sweep.service.Sweeper;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Operator view of the sweep ledger (header {@code x-admin-key}; not routed by the public gateway): per
 * chain what deposit addresses received, what was swept to the seller wallet and what they still hold,
 * plus the latest sweeps with their state (a FAILED one with its error).
 */
@Path("/admin/sweeps")
@Produces(MediaType.APPLICATION_JSON)
@AdminOnly
public class SweepAdminResource {

    @Inject
    Sweeper sweeper;

    @GET
    public Uni<Map<String, Object>> sweeps(@QueryParam("limit") Integer limit) {
        int n = limit == null ? 50 : limit;
        if (n < 1 || n > 500) {
            throw ApiException.invalidField("limit", "must be an integer from 1 to 500");
        }
        return sweeper.totals().flatMap(totals -> sweeper.recent(n).map(batches -> {
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("chains", totals.stream().map(t -> Map.of("chain", t.chain(), "receivedAtomic", t.received().toString(),
                    "sweptAtomic", t.swept().toString(), "heldAtomic", t.held().toString(), "openSweeps", t.openBatches(),
                    "failedSweeps", t.failedBatches())).toList());
            data.put("sweeps", batches.stream().map(SweepAdminResource::view).toList());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("success", true);
            body.put("data", data);
            return body;
        }));
    }

    private static Map<String, Object> view(SweepRepository.Batch b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", b.id().toString());
        m.put("chain", b.chain());
        m.put("state", b.state());
        m.put("txHash", b.txHash());
        m.put("nonce", b.nonce());
        m.put("addresses", b.addresses().size());
        m.put("sweptAtomic", b.swept() == null ? null : b.swept().toString());
        m.put("attempts", b.attempts());
        m.put("lastError", b.lastError());
        m.put("createdAt", b.createdAt().toString());
        return m;
    }
}
