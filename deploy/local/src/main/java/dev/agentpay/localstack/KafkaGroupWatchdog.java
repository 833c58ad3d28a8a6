package dev.agentpay.localstack;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupListing;

/**
 * The local stack's guard against a group coordinator that does not come back after an unclean broker
 * restart (bench/FAULTS.md, 2026-11-25: after {@code kill -9} of Kafka two {@code __consumer_offsets}
 * partitions took no write again and the four consumer groups coordinated there stalled for good, while
 * the broker otherwise served). Every 15 s it describes every consumer group; a group whose coordinator
 * has not answered (not available, still loading, not the coordinator, or no answer in 10 s) for
 * {@code stuckAfter} while the broker has been up that long gets the broker restarted politely (SIGTERM:
 * a clean shutdown, then the supervisor starts it again and the coordinator loads its partitions anew).
 * In production a replicated Kafka (3 brokers) moves a coordinator to another broker instead.
 */
final class KafkaGroupWatchdog implements AutoCloseable {

    /** Which groups have had no answer from their coordinator, and since when. */
    static final class StuckGroups {
        private final Duration stuckAfter;
        private final Map<String, Instant> since = new HashMap<>();

        StuckGroups(Duration stuckAfter) {
            this.stuckAfter = stuckAfter;
        }

        void answered(String group) {
            since.remove(group);
        }

        void unanswered(String group, Instant now) {
            since.putIfAbsent(group, now);
        }

        /** A group stuck for longer than the limit, if any. */
        Optional<String> stuck(Instant now) {
            return since.entrySet().stream().filter(e -> Duration.between(e.getValue(), now).compareTo(stuckAfter) > 0)
                    .map(Map.Entry::getKey).sorted().findFirst();
        }

        void clear() {
            since.clear();
        }
    }

    private final Supplier<String> bootstrap;
    private final Supplier<Supervisor.Supervised> broker;
    private final Duration stuckAfter;
    private final StuckGroups groups;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kafka-group-watchdog");
        t.setDaemon(true);
        return t;
    });
    private long brokerPid = -1;
    private Instant brokerSeen = Instant.now();

    KafkaGroupWatchdog(Supplier<String> bootstrap, Supplier<Supervisor.Supervised> broker, Duration stuckAfter) {
        this.bootstrap = bootstrap;
        this.broker = broker;
        this.stuckAfter = stuckAfter;
        this.groups = new StuckGroups(stuckAfter);
        timer.scheduleWithFixedDelay(this::round, 15, 15, TimeUnit.SECONDS);
    }

    private void round() {
        Supervisor.Supervised b = broker.get();
        if (b == null || !b.isAlive()) {
            groups.clear();
            return;
        }
        if (b.pid() != brokerPid) { // a new broker: give it the whole period before judging
            brokerPid = b.pid();
            brokerSeen = Instant.now();
            groups.clear();
        }
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.get());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        try (Admin admin = Admin.create(p)) {
            List<String> ids = admin.listConsumerGroups().all().get(10, TimeUnit.SECONDS).stream()
                    .map(ConsumerGroupListing::groupId).toList();
            var described = admin.describeConsumerGroups(ids).describedGroups();
            Instant now = Instant.now();
            for (String id : ids) {
                try {
                    described.get(id).get(10, TimeUnit.SECONDS);
                    groups.answered(id);
                } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                    groups.unanswered(id, now);
                }
            }
            Optional<String> stuck = groups.stuck(now);
            if (stuck.isPresent() && Duration.between(brokerSeen, now).compareTo(stuckAfter) > 0) {
                System.out.printf("[kafka-watchdog] the coordinator of consumer group %s has not answered for %s: restarting"
                        + " the broker (bench/FAULTS.md, coordinator stall)%n", stuck.get(), stuckAfter);
                System.out.flush();
                groups.clear();
                b.stop(); // the supervisor sees it exit and starts it again
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException | RuntimeException e) {
            // the broker itself does not answer: the supervisor's business, not a coordinator stall
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
