package dev.agentpay.webhook.delivery.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.webhook.domain.EventTypes;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import dev.agentpay.webhook.subscription.repository.SubscriptionRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Disables a subscription on the dispatcher's own initiative (410 Gone, or failing for too long): its
 * pending deliveries are abandoned, and in the same transaction a {@code webhook.disabled} notice is
 * queued to the partner's other subscriptions that asked for it.
 */
@ApplicationScoped
public class Disabler {

    private static final Logger LOG = Logger.getLogger(Disabler.class);

    @Inject
    SubscriptionRepository subscriptions;
    @Inject
    DeliveryRepository deliveries;
    @Inject
    MeterRegistry meters;

    public Uni<Void> disable(SqlClient tx, UUID subscriptionId, String partnerId, String url, String reason) {
        return subscriptions.disable(tx, subscriptionId, reason).flatMap(changed -> {
            if (changed == 0) {
                return Uni.createFrom().voidItem();
            }
            LOG.warnf("webhook subscription %s of partner %s disabled: %s", subscriptionId, partnerId, reason);
            meters.counter("webhook.subscriptions.disabled", "reason", reason).increment();
            ObjectNode data = EventCodec.mapper().createObjectNode();
            data.put("subscriptionId", subscriptionId.toString());
            data.put("url", url);
            data.put("reason", reason);
            data.put("disabledAt", Instant.now().toString());
            UUID id = UUID.randomUUID();
            return deliveries.fanOut(tx, id, EventTypes.WEBHOOK_DISABLED, subscriptionId.toString(), partnerId, false,
                    "notice:" + subscriptionId, FanOutService.envelope(id, EventTypes.WEBHOOK_DISABLED, data, Instant.now()),
                    subscriptionId).replaceWithVoid();
        });
    }
}
