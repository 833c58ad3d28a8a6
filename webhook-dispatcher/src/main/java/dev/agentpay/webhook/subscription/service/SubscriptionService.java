package dev.agentpay.webhook.subscription.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.webhook.config.WebhookConfig;
import dev.agentpay.webhook.delivery.domain.Attempt;
import dev.agentpay.webhook.delivery.domain.Delivery;
import dev.agentpay.webhook.subscription.domain.Subscription;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import dev.agentpay.webhook.subscription.repository.SubscriptionRepository;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import dev.agentpay.webhook.delivery.client.TargetGuard;
import dev.agentpay.webhook.delivery.service.DeliveryWorker;

/** Subscription management and the delivery log, always on behalf of one partner. */
@ApplicationScoped
public class SubscriptionService {

    @Inject
    SubscriptionRepository subscriptions;
    @Inject
    DeliveryRepository deliveries;
    @Inject
    SubscriptionRules rules;
    @Inject
    TargetGuard guard;
    @Inject
    WebhookConfig config;
    @Inject
    DeliveryWorker worker;
    @Inject
    Pool pool;

    public Uni<Subscription> create(String partnerId, String url, List<String> events, String secret, String description) {
        String host = rules.checkUrl(url);
        List<String> types = rules.checkEvents(events);
        rules.checkSecret(secret);
        return checkTarget(host)
                .flatMap(v -> subscriptions.countForPartner(pool, partnerId))
                .flatMap(n -> {
                    if (n >= config.maxSubscriptionsPerPartner()) {
                        return Uni.createFrom().failure(ApiException.conflict("subscription_limit",
                                "at most " + config.maxSubscriptionsPerPartner() + " webhook subscriptions per partner"));
                    }
                    return subscriptions.insert(pool, partnerId, url, types, description, secret);
                });
    }

    public Uni<List<Subscription>> list(String partnerId) {
        return subscriptions.listForPartner(pool, partnerId);
    }

    public Uni<Subscription> get(String partnerId, UUID id) {
        return subscriptions.find(pool, partnerId, id).map(SubscriptionService::found);
    }

    public Uni<Subscription> update(String partnerId, UUID id, String url, List<String> events, String description) {
        if (url == null && events == null && description == null) {
            throw ApiException.badRequest("validation_error", "nothing to update: send url, events or description");
        }
        String host = url == null ? null : rules.checkUrl(url);
        List<String> types = events == null ? null : rules.checkEvents(events);
        Uni<Void> checked = host == null ? Uni.createFrom().voidItem() : checkTarget(host);
        return checked.flatMap(v -> subscriptions.update(pool, partnerId, id, url, types, description))
                .map(SubscriptionService::found);
    }

    public Uni<Subscription> rotate(String partnerId, UUID id, String secret, Long overlapSeconds) {
        rules.checkSecret(secret);
        Duration overlap = overlapSeconds == null ? config.rotation().defaultOverlap() : Duration.ofSeconds(overlapSeconds);
        if (overlap.isNegative() || overlap.compareTo(config.rotation().maxOverlap()) > 0) {
            throw ApiException.invalidField("overlapSeconds",
                    "must be 0 to " + config.rotation().maxOverlap().toSeconds());
        }
        return subscriptions.find(pool, partnerId, id).map(SubscriptionService::found).flatMap(s -> {
            if (s.secret().equals(secret)) {
                return Uni.createFrom().failure(ApiException.badRequest("weak_secret",
                        "secret: the new secret must differ from the current one"));
            }
            return subscriptions.rotate(pool, partnerId, id, secret, overlap).map(SubscriptionService::found);
        });
    }

    public Uni<Subscription> disable(String partnerId, UUID id) {
        return get(partnerId, id).flatMap(s -> pool
                        .withTransaction(tx -> subscriptions.disable(tx, id, Subscription.REASON_MANUAL)))
                .flatMap(n -> get(partnerId, id));
    }

    public Uni<Subscription> enable(String partnerId, UUID id) {
        return get(partnerId, id)
                .flatMap(s -> checkTarget(java.net.URI.create(s.url()).getHost()))
                .flatMap(v -> subscriptions.enable(pool, partnerId, id))
                .map(SubscriptionService::found);
    }

    public Uni<Void> delete(String partnerId, UUID id) {
        return pool.withTransaction(tx -> subscriptions.delete(tx, partnerId, id)).map(deleted -> {
            if (!deleted) {
                throw notFound();
            }
            return null;
        });
    }

    /** A page of the subscription's deliveries, newest first ({@code status} and {@code limit} checked by the resource). */
    public Uni<List<Delivery>> deliveries(String partnerId, UUID id, String status, int limit, UUID before) {
        return get(partnerId, id)
                .flatMap(s -> before == null ? Uni.createFrom().item((Long) null) : deliveries.seqOf(pool, id, before).map(seq -> {
                    if (seq == null) {
                        throw ApiException.notFound("delivery_not_found", "no such delivery");
                    }
                    return seq;
                }))
                .flatMap(seq -> deliveries.list(pool, id, status, limit, seq));
    }

    /** A delivery and its attempts. */
    public record DeliveryDetail(Delivery delivery, List<Attempt> attempts) {
    }

    public Uni<DeliveryDetail> delivery(String partnerId, UUID id, UUID deliveryId) {
        return get(partnerId, id)
                .flatMap(s -> deliveries.find(pool, id, deliveryId))
                .flatMap(d -> {
                    if (d == null) {
                        return Uni.createFrom().failure(ApiException.notFound("delivery_not_found", "no such delivery"));
                    }
                    return deliveries.attempts(pool, deliveryId).map(a -> new DeliveryDetail(d, a));
                });
    }

    public Uni<DeliveryDetail> redeliver(String partnerId, UUID id, UUID deliveryId) {
        return get(partnerId, id)
                .flatMap(s -> {
                    if (!Subscription.ACTIVE.equals(s.status())) {
                        return Uni.createFrom().failure(ApiException.conflict("webhook_disabled",
                                "enable the subscription before redelivering"));
                    }
                    return deliveries.find(pool, id, deliveryId);
                })
                .flatMap(d -> d == null
                        ? Uni.createFrom().failure(ApiException.notFound("delivery_not_found", "no such delivery"))
                        : deliveries.redeliver(pool, id, deliveryId))
                .flatMap(queued -> {
                    if (!queued) {
                        return Uni.createFrom().failure(ApiException.conflict("delivery_in_flight",
                                "an attempt of this delivery is in flight; try again shortly"));
                    }
                    worker.wake();
                    return delivery(partnerId, id, deliveryId);
                });
    }

    /** The SSRF check at write time (DNS resolution runs off the event loop). */
    private Uni<Void> checkTarget(String host) {
        if (guard.privateTargetsAllowed()) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().item(() -> {
            try {
                guard.check(host);
                return (Void) null;
            } catch (TargetGuard.RefusedTarget e) {
                throw ApiException.badRequest("url_not_allowed", "url: " + e.getMessage()
                        + "; deliveries go only to public internet addresses");
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static Subscription found(Subscription s) {
        if (s == null) {
            throw notFound();
        }
        return s;
    }

    private static ApiException notFound() {
        return ApiException.notFound("webhook_not_found", "no such webhook subscription");
    }
}
