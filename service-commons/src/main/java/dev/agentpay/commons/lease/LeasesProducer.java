package dev.agentpay.commons.lease;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The service's {@link Leases}: its own database, one holder id per process. */
@ApplicationScoped
public class LeasesProducer {

    @Produces
    @Singleton
    Leases leases(Pool pool, Vertx vertx, LeaseConfig config) {
        return new Leases(pool, vertx, config.ttl(), config.renewEvery(), config.idleTransactionTimeout(), Leases.newHolderId());
    }
}
