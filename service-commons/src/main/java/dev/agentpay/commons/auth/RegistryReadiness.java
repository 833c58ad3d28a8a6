package dev.agentpay.commons.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready until the partner registry has caught up with the {@code partners} topic (keys would be refused). */
@Readiness
@ApplicationScoped
public class RegistryReadiness implements HealthCheck {

    @Inject
    PartnerRegistry registry;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("partner-registry").status(registry.caughtUp())
                .withData("partners", registry.size()).build();
    }
}
