package dev.agentpay.settlement.escrow.service;

import dev.agentpay.settlement.config.SettlementConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * DOWN while a chain's escrow command rounds have failed for {@code settlement.escrow.stall-after} (PT30S) without a
 * success (issue 30: an RPC down makes releases, freezes and resolves wait and retry without limit; readiness says so),
 * with the chain, since when and the latest reason; UP again at the first round that completes.
 */
@Readiness
@ApplicationScoped
public class EscrowReadiness implements HealthCheck {

    @Inject
    EscrowOperator operator;

    @Inject
    SettlementConfig config;

    @Override
    public HealthCheckResponse call() {
        return of(operator.stalls().stalled(Instant.now(), config.escrow().stallAfter()));
    }

    static HealthCheckResponse of(Map<String, String> stalled) {
        if (stalled.isEmpty()) {
            return HealthCheckResponse.up("escrow-commands");
        }
        HealthCheckResponseBuilder b = HealthCheckResponse.named("escrow-commands").down();
        stalled.forEach(b::withData);
        return b.build();
    }
}
