package dev.agentpay.invoice.invoices.service;

import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.invoice.config.InvoiceConfig;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.repository.InvoiceRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Invoices expire at their {@code expiresAt}: a sweep (every {@code invoice.expiry.interval}) moves
 * PENDING invoices past it to EXPIRED, each with its {@code invoice.expired} event in the same
 * transaction (outbox); several instances share the work ({@code skip locked}). A payment that finds an
 * invoice past its deadline before the sweep did expires it first ({@link #expire}), so the outcome
 * does not depend on the sweep's timing. See README "Expiry".
 */
@ApplicationScoped
public class InvoiceExpiry {

    private static final Logger LOG = Logger.getLogger(InvoiceExpiry.class);

    @Inject
    Pool pool;

    @Inject
    InvoiceRepository invoices;

    @Inject
    Outbox outbox;

    @Inject
    InvoiceConfig config;

    @Inject
    MeterRegistry meters;

    @Scheduled(every = "${invoice.expiry.interval:PT5S}", delay = 1, delayUnit = java.util.concurrent.TimeUnit.SECONDS,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return sweep(Instant.now()).replaceWithVoid()
                .onFailure().invoke(t -> LOG.warnf("invoice expiry sweep failed (retried next interval): %s", t.getMessage()))
                .onFailure().recoverWithNull();
    }

    /** Expires every invoice due at {@code now}, batch by batch; emits how many it expired. */
    public Uni<Integer> sweep(Instant now) {
        int batch = config.expiry().batchSize();
        return pool.withTransaction(c -> invoices.expireDue(c, now, batch)
                        .call(expired -> events(c, expired, now)))
                .flatMap(expired -> {
                    if (!expired.isEmpty()) {
                        meters.counter("invoice.expired").increment(expired.size());
                        LOG.infof("%d invoice(s) expired", expired.size());
                    }
                    return expired.size() < batch ? Uni.createFrom().item(expired.size())
                            : sweep(now).map(more -> more + expired.size());
                });
    }

    /** A payment found this locked PENDING invoice past its deadline: EXPIRED now, with its event. */
    public Uni<Invoice> expire(SqlClient c, Invoice inv, Instant now) {
        return invoices.markExpired(c, inv.id(), now)
                .chain(() -> invoices.lock(c, inv.id()))
                .call(after -> outbox.append(c, InvoiceService.event(InvoiceEvent.EXPIRED, after, now)))
                .invoke(after -> meters.counter("invoice.expired").increment());
    }

    private Uni<Void> events(SqlClient c, List<Invoice> expired, Instant now) {
        Uni<Void> all = Uni.createFrom().voidItem();
        for (Invoice inv : expired) {
            all = all.call(() -> outbox.append(c, InvoiceService.event(InvoiceEvent.EXPIRED, inv, now)));
        }
        return all;
    }
}
