package dev.agentpay.discovery.benchmark.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.commons.limits.WellFormedText;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.discovery.benchmark.domain.BenchmarkPublication;
import dev.agentpay.discovery.benchmark.repository.BenchmarkRepository;
import dev.agentpay.discovery.documents.domain.DocumentPaths;
import dev.agentpay.discovery.documents.service.DocumentService;
import dev.agentpay.discovery.documents.service.DocumentStore;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Publishes ATRR benchmark documents: validates, stores the document with its raw logs and writes
 * {@code disco.benchmark.published} to the outbox in one transaction, then re-renders
 * {@code benchmark.json}. Every replica also re-renders it periodically from the table.
 */
@ApplicationScoped
public class BenchmarkService {

    public static final BigDecimal FLOOR = new BigDecimal("0.80");
    static final int HISTORY = 10;

    private static final Logger LOG = Logger.getLogger(BenchmarkService.class);

    @Inject
    Pool pool;

    @Inject
    BenchmarkRepository repository;

    @Inject
    Outbox outbox;

    @Inject
    ObjectMapper mapper;

    @Inject
    DocumentService documents;

    @Inject
    DocumentStore store;

    /** What a publish answers. */
    public record Published(String id, BigDecimal score, boolean meetsFloor, String benchmarkUrl, String rawLogsUrl) {
    }

    void onStart(@Observes StartupEvent ev) {
        store.put(DocumentPaths.BENCHMARK, documents.json(render(List.of())));
        // no retry here: the scheduled refresh below runs every 30 s, so a database away at start only delays it
        refresh().subscribe().with(x -> { }, e -> LOG.warnf("benchmark.json not rendered at start (the schedule retries): %s", e.toString()));
    }

    @Scheduled(every = "${discovery.benchmark-refresh:30s}", delayed = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refresh() {
        return repository.latest(pool, HISTORY).invoke(l -> store.put(DocumentPaths.BENCHMARK, documents.json(render(l)))).replaceWithVoid();
    }

    public Uni<Published> publish(BenchmarkPublication doc) {
        BenchmarkValidator.checkConsistency(doc);
        ObjectNode stored = mapper.valueToTree(doc);
        // the typed fields' text is checked by the platform mapper; the free-form members (raw logs, extras) are trees
        WellFormedText.require(stored, Set.of());
        String id = "bm_" + UUID.randomUUID().toString().replace("-", "");
        Instant now = Instant.now();
        BigDecimal score = doc.score().setScale(4, RoundingMode.HALF_EVEN);
        StringBuilder jsonl = new StringBuilder();
        doc.rawLogs().forEach(l -> jsonl.append(l.toString()).append('\n'));
        stored.remove("raw_logs");
        stored.put("id", id);
        stored.put("published_at", now.toString());
        stored.put("raw_log_entries", doc.rawLogs().size());
        Published published = new Published(id, score, score.compareTo(FLOOR) >= 0,
                documents.url(DocumentPaths.BENCHMARK), documents.url(DocumentPaths.rawLogs(id)));
        ObjectNode data = mapper.createObjectNode();
        data.put("id", id);
        data.put("metric", BenchmarkPublication.METRIC);
        data.put("score", score);
        data.put("floor", FLOOR);
        data.put("meets_floor", published.meetsFloor());
        data.put("tasks_total", doc.tasksTotal().intValue());
        data.put("tasks_completed", doc.tasksCompleted().intValue());
        data.put("published_at", now.toString());
        data.put("benchmark_url", published.benchmarkUrl());
        data.put("raw_logs_url", published.rawLogsUrl());
        PlatformEvent event = new PlatformEvent(EventHeader.of(PlatformEvent.BENCHMARK_PUBLISHED, id, null, now,
                PlatformEvent.SCHEMA_VERSION), data);
        return pool.withTransaction(tx -> repository.insert(tx, id, score, stored.toString(), jsonl.toString(), now)
                        .flatMap(x -> outbox.append(tx, event)))
                .flatMap(x -> refresh())
                .replaceWith(published);
    }

    public Uni<java.util.Optional<String>> rawLogs(String id) {
        return repository.rawLogs(pool, id);
    }

    ObjectNode render(List<BenchmarkRepository.Stored> latest) {
        ObjectNode b = mapper.createObjectNode();
        b.put("metric", BenchmarkPublication.METRIC);
        b.put("definition", "fraction of standard agent tasks that finish end to end using only discovery-described tool calls");
        b.put("floor", FLOOR);
        b.put("task_classes_expected", 6);
        b.put("calls_expected", 18);
        ObjectNode repro = mapper.createObjectNode();
        repro.put("harness", "bench/src/main/java/dev/agentpay/bench/atrr/AtrrHarness.java");
        repro.put("command", "java -cp 'bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*' dev.agentpay.bench.atrr.AtrrHarness (reads BASE_URL, API_KEY, SIGNING_SECRET, ADMIN_API_KEY, DEV_PAYER_PRIVATE_KEY from the environment or .local/stack.env)");
        repro.put("entry_point", documents.url(DocumentPaths.MANIFEST));
        if (latest.isEmpty()) {
            b.putNull("latest");
            repro.putNull("raw_logs_url");
            repro.put("raw_logs_format", "application/x-ndjson, one JSON record per HTTP exchange");
        } else {
            BenchmarkRepository.Stored top = latest.get(0);
            b.set("latest", parse(top.document()));
            ((ObjectNode) b.get("latest")).put("meets_floor", top.score().compareTo(FLOOR) >= 0);
            repro.put("raw_logs_url", documents.url(DocumentPaths.rawLogs(top.id())));
            repro.put("raw_logs_format", "application/x-ndjson, one JSON record per HTTP exchange");
        }
        b.set("reproducibility", repro);
        ArrayNode history = b.putArray("history");
        for (BenchmarkRepository.Stored s : latest) {
            history.addObject().put("id", s.id()).put("score", s.score()).put("published_at", s.publishedAt().toString())
                    .put("raw_logs_url", documents.url(DocumentPaths.rawLogs(s.id())));
        }
        return b;
    }

    private JsonNode parse(String json) {
        try {
            return mapper.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
