package dev.agentpay.invoice.settlement.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.invoice.settlement.domain.UnmatchedTransfer;
import dev.agentpay.invoice.settlement.service.SettlementService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.List;

/** Operator view of transfers to the seller wallets that settled no invoice (refunds, manual matching). */
@Path("/admin/transfers")
@Produces(MediaType.APPLICATION_JSON)
@AdminOnly
@Tag(name = "Admin: transfers")
public class TransferAdminResource {

    @Inject
    SettlementService settlements;

    @GET
    @Path("/unmatched")
    @Operation(operationId = "listUnmatchedTransfers", summary = "List transfers no invoice claimed (operator)")
    public Uni<Envelope<List<UnmatchedTransfer>>> unmatched(@Parameter(description = PageLimit.DESCRIPTION) @QueryParam("limit")
            @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER) String limit) {
        return settlements.unmatched(PageLimit.of(limit, 100, 1000)).map(Envelope::of);
    }
}
