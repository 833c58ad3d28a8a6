package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.config.AnchorConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** DOWN while anchoring is stalled ({@link AnchorPipeline#stallReason()}), naming the chain and the reason; UP once it moves. */
@Readiness
@ApplicationScoped
public class AnchoringReadiness implements HealthCheck {

    @Inject
    AnchorPipeline pipeline;

    @Inject
    AnchorConfig config;

    @Override
    public HealthCheckResponse call() {
        String reason = pipeline.stallReason();
        // the chain is named either way: with several anchor chains (one deployment each) an operator sees which one stalled
        var response = HealthCheckResponse.named("anchoring").withData("chain_id", config.chainId());
        return reason == null ? response.up().build()
                : response.down().withData("stalled", "chain " + config.chainId() + ": " + reason).build();
    }
}
