package dev.agentpay.commons.consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * DOWN while a consumer has been retrying one record for longer than {@code platform.consumers.stall-after}
 * (its database or a downstream is away); UP again as soon as it applies a record. Readiness, not liveness:
 * a restart would not bring the database back, and the consumer resumes by itself.
 */
@Readiness
@ApplicationScoped
public class ConsumersReadiness implements HealthCheck {

    @Inject
    Consumers consumers;

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder b = HealthCheckResponse.named("consumers").up();
        Duration stallAfter = consumers.stallAfter();
        for (Map.Entry<String, Consumers.Stall> e : consumers.stalls().entrySet()) {
            Consumers.Stall s = e.getValue();
            if (Duration.between(s.since(), Instant.now()).compareTo(stallAfter) > 0) {
                b.down().withData(e.getKey(), "stalled since " + s.since() + " (" + s.attempts() + " tries): " + s.lastError());
            }
        }
        consumers.deadLettered().forEach((k, v) -> b.withData(k + ".dead-letters", v));
        return b.build();
    }
}
