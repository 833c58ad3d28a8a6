package dev.agentpay.anchor.anchoring.service;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** DOWN while anchoring is stalled ({@link AnchorPipeline#stallReason()}), with the reason; UP once it moves. */
@Readiness
@ApplicationScoped
public class AnchoringReadiness implements HealthCheck {

    @Inject
    AnchorPipeline pipeline;

    @Override
    public HealthCheckResponse call() {
        String reason = pipeline.stallReason();
        return reason == null ? HealthCheckResponse.up("anchoring")
                : HealthCheckResponse.named("anchoring").down().withData("stalled", reason).build();
    }
}
