package dev.agentpay.discovery.trust.service;

import dev.agentpay.discovery.config.DiscoveryConfig;
import dev.agentpay.discovery.documents.domain.DocumentPaths;
import dev.agentpay.discovery.documents.service.DocumentService;
import dev.agentpay.discovery.documents.service.DocumentStore;
import dev.agentpay.discovery.trust.domain.TrustCounts;
import dev.agentpay.discovery.trust.repository.TrustCounterRepository;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Rebuilds the trust_signals section from the counters: at start and on the nightly cron, so the
 * published figures (and their ETag) stay stable during the day, as the spec describes.
 */
@ApplicationScoped
public class TrustSignalsService {

    private static final Logger LOG = Logger.getLogger(TrustSignalsService.class);

    @Inject
    Pool pool;

    @Inject
    TrustCounterRepository counters;

    @Inject
    DocumentService documents;

    @Inject
    DocumentStore store;

    @Inject
    DiscoveryConfig config;

    void onStart(@Observes StartupEvent ev) {
        // publish zeros at once so the section is never missing; then the real counts
        store.put(DocumentPaths.section(DocumentPaths.TRUST_SIGNALS),
                documents.json(documents.trustSignals(0, 0, 0, 0, partnerships(), Instant.EPOCH)));
        // a database away for minutes at start must not leave the document stale until the next schedule:
        // retried without limit (each failure logged), like every other pipeline of the platform
        rebuild().onFailure().invoke(e -> LOG.warnf("trust signals not rendered yet (retrying): %s", e.toString()))
                .onFailure().retry().withBackOff(Duration.ofSeconds(1), Duration.ofSeconds(30)).indefinitely()
                .subscribe().with(c -> { }, e -> LOG.error("trust signals could not be rebuilt at start", e));
    }

    @Scheduled(cron = "${discovery.trust-signals-cron:0 0 3 * * ?}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> nightly() {
        return rebuild().replaceWithVoid();
    }

    /** Reads the counters and republishes the section; emits the counts published. */
    public Uni<TrustCounts> rebuild() {
        return counters.counts(pool).invoke(c -> {
            store.put(DocumentPaths.section(DocumentPaths.TRUST_SIGNALS), documents.json(documents.trustSignals(
                    c.drsReceiptsIssued(), c.mandatesAnchored(), c.anchoredTransitions(), c.invoicesSettled(),
                    partnerships(), Instant.now())));
            LOG.infof("trust signals rebuilt: %s", c);
        });
    }

    private List<String> partnerships() {
        return config.partnerships().orElse(List.of());
    }
}
