package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator stall of bench/FAULTS.md, looked for on the local stack's own broker alone: one
 * {@link KafkaServer}, a consumer group on every {@code __consumer_offsets} partition, each consuming and
 * committing without pause, while the broker is killed ({@code kill -9}) and started again on the same
 * storage (every third cycle killed once more as soon as it answers, while its coordinator may still be
 * loading), and a consumer of some groups is replaced while the broker is down (as a killed service
 * restarting). After each restart every group must consume a new record and commit it within
 * {@link #RECOVERY}: a group whose coordinator partition did not come back fails the test, and the
 * broker's log (kept at INFO for the coordinator and log recovery) says what it did.
 * {@code -Dkafka.crash.cycles=N} repeats the kill (2 by default).
 */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class KafkaCrashRestartTest {

    private static final Duration RECOVERY = Duration.ofSeconds(60);
    private static final String TOPIC = "crash-events";
    private static final int OFFSETS_PARTITIONS = 10; // as KafkaServer configures

    @TempDir
    Path dir;

    @Test
    void everyGroupConsumesAndCommitsAgainAfterEachKillAndRestart() throws Exception {
        int cycles = Integer.getInteger("kafka.crash.cycles", 2);
        int port = Ports.free();
        Path data = dir.resolve("kafka");
        Path log = dir.resolve("kafka.log");
        KafkaServer broker = KafkaServer.start(data, port, log);
        List<String> groups = groupsOnEveryOffsetsPartition();
        Map<String, Worker> workers = new ConcurrentHashMap<>();
        try (Admin admin = admin(broker.bootstrapServers());
                KafkaProducer<String, String> producer = producer(broker.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 6, (short) 1))).all().get(30, TimeUnit.SECONDS);
            for (String g : groups) {
                workers.put(g, Worker.start(broker.bootstrapServers(), g));
            }
            awaitAllConsumed(producer, workers, "initial");
            for (int cycle = 1; cycle <= cycles; cycle++) {
                // writes (produce and commits) in flight while the broker dies
                for (int i = 0; i < 200; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, "k" + i, "busy-" + cycle));
                }
                Thread.sleep(cycle % 2 == 0 ? 300 : 1200); // pacing: let those writes be in flight when the broker dies (a clock, no condition)
                long pid = broker.process().pid();
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
                // some consumers restart while the broker is down (a service killed meanwhile)
                for (int i = cycle % 3; i < groups.size(); i += 3) {
                    String g = groups.get(i);
                    workers.get(g).abandon();
                    workers.put(g, Worker.start(broker.bootstrapServers(), g));
                }
                long down = System.currentTimeMillis();
                broker = KafkaServer.start(data, port, log);
                if (cycle % 3 == 0) {
                    // killed again as soon as it answers, while the coordinator may still be loading its partitions
                    long again = broker.process().pid();
                    ProcessHandle.of(again).ifPresent(ProcessHandle::destroyForcibly);
                    ProcessHandle.of(again).ifPresent(h -> h.onExit().join());
                    broker = KafkaServer.start(data, port, log);
                }
                System.out.printf("[kafka-crash] cycle %d: broker back after %d ms%n", cycle, System.currentTimeMillis() - down);
                awaitAllConsumed(producer, workers, "cycle " + cycle);
                System.out.println("[kafka-crash] cycle " + cycle + ": coordinators " + coordinators(admin, groups));
            }
        } finally {
            workers.values().forEach(Worker::abandon);
            broker.close();
            Path kept = Path.of("target", "kafka-crash-restart.log");
            Files.createDirectories(kept.getParent());
            if (Files.exists(log)) {
                Files.copy(log, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Group ids whose coordinator partitions ({@code abs(hash) % 10}, as the broker maps them) cover all ten, two each. */
    static List<String> groupsOnEveryOffsetsPartition() {
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (int i = 0; byPartition.values().stream().mapToInt(List::size).sum() < 2 * OFFSETS_PARTITIONS; i++) {
            String g = "crash-group-" + i;
            List<String> l = byPartition.computeIfAbsent(Utils.abs(g.hashCode()) % OFFSETS_PARTITIONS, k -> new ArrayList<>());
            if (l.size() < 2) {
                l.add(g);
            }
        }
        return byPartition.values().stream().flatMap(List::stream).toList();
    }

    /** Sends one marker per partition and waits until every group has consumed and committed all of them. */
    private static void awaitAllConsumed(KafkaProducer<String, String> producer, Map<String, Worker> workers, String when) throws Exception {
        String marker = "marker-" + when + "-" + System.nanoTime();
        for (int p = 0; p < 6; p++) {
            producer.send(new ProducerRecord<>(TOPIC, p, "m", marker)).get(60, TimeUnit.SECONDS);
        }
        long start = System.currentTimeMillis();
        Awaitility.await().atMost(RECOVERY).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            Map<String, Long> missing = new TreeMap<>();
            workers.forEach((g, w) -> {
                if (w.committedMarkers(marker) != 6) {
                    missing.put(g + " (offsets partition " + Utils.abs(g.hashCode()) % OFFSETS_PARTITIONS + ")", w.committedMarkers(marker));
                }
            });
            assertThat(missing).as(when + ": groups that did not consume and commit the marker within " + RECOVERY
                    + " (markers committed of 6); broker log: target/kafka-crash-restart.log").isEmpty();
        });
        System.out.printf("[kafka-crash] %s: all %d groups consumed and committed in %d ms%n", when, workers.size(),
                System.currentTimeMillis() - start);
    }

    private static Map<String, String> coordinators(Admin admin, List<String> groups) {
        Map<String, String> out = new TreeMap<>();
        try {
            for (Map.Entry<String, ConsumerGroupDescription> e : admin.describeConsumerGroups(groups).all().get(10, TimeUnit.SECONDS).entrySet()) {
                out.put(e.getKey(), e.getValue().groupState() + "@" + e.getValue().coordinator().id());
            }
        } catch (Exception e) {
            out.put("error", e.toString());
        }
        return out;
    }

    private static Admin admin(String bootstrap) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        return Admin.create(p);
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** One group's consumer on its own thread: poll, then commit what it polled, until abandoned. */
    static final class Worker implements Runnable {
        private final KafkaConsumer<String, String> consumer;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<String, AtomicLong> committed = new ConcurrentHashMap<>();
        private final Set<String> seenThisPoll = ConcurrentHashMap.newKeySet();

        private Worker(String bootstrap, String group) {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            // a replaced consumer's old member (it never left) is expired after this, not the default 45 s
            p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "10000");
            p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, "3000");
            consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        }

        static Worker start(String bootstrap, String group) {
            Worker w = new Worker(bootstrap, group);
            Thread t = new Thread(w, "consumer-" + group);
            t.setDaemon(true);
            t.start();
            return w;
        }

        long committedMarkers(String marker) {
            AtomicLong n = committed.get(marker);
            return n == null ? 0 : n.get();
        }

        /** Stops without a clean leave when the broker is down (the thread just ends, as a killed process would not leave). */
        void abandon() {
            running.set(false);
        }

        @Override
        public void run() {
            try {
                consumer.subscribe(List.of(TOPIC));
                while (running.get()) {
                    try {
                        seenThisPoll.clear();
                        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                            if (r.value().startsWith("marker-")) {
                                seenThisPoll.add(r.value() + "|" + r.partition());
                            }
                        }
                        consumer.commitSync(Duration.ofSeconds(10));
                        for (String s : seenThisPoll) {
                            committed.computeIfAbsent(s.substring(0, s.indexOf('|')), k -> new AtomicLong()).incrementAndGet();
                        }
                    } catch (org.apache.kafka.common.errors.RetriableException | org.apache.kafka.clients.consumer.CommitFailedException e) {
                        // the broker is away or the group rebalanced: the records are polled again
                        seenThisPoll.clear();
                    }
                }
            } catch (RuntimeException e) {
                System.out.println("[kafka-crash] consumer " + Thread.currentThread().getName() + " ended: " + e);
            } finally {
                try {
                    consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(1)));
                } catch (RuntimeException e) {
                    // abandoned
                }
            }
        }
    }
}
