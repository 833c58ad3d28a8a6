package dev.agentpay.localstack;

import dev.agentpay.commons.events.Topics;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;

/**
 * A real single-node KRaft Kafka broker run from the Apache Kafka jars, in its own JVM (so it can be
 * killed and restarted on its own). The first start formats the storage; later starts reuse it.
 */
public final class KafkaServer implements AutoCloseable {

    /** How long a start waits for the ports of a broker that is still exiting. */
    private static final Duration PORT_RELEASE_WAIT = Duration.ofSeconds(30);

    private final ManagedProcess process;
    private final int port;

    private KafkaServer(ManagedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    public static KafkaServer start(Path dir, int port, Path log) {
        try {
            Files.createDirectories(dir);
            Path data = dir.resolve("data");
            Path props = dir.resolve("server.properties");
            // A broker stopped or killed a moment ago may still hold its ports while it exits: starting
            // at once failed with "Address already in use" (issue 16). Wait for them to be released.
            if (!Ports.awaitFree(port, PORT_RELEASE_WAIT)) {
                throw new IllegalStateException("port " + port + " is still in use after " + PORT_RELEASE_WAIT
                        + " (a previous Kafka broker that did not exit?)");
            }
            int controllerPort = previousControllerPort(props);
            Properties p = new Properties();
            p.setProperty("process.roles", "broker,controller");
            p.setProperty("node.id", "1");
            p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
            p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
            p.setProperty("controller.listener.names", "CONTROLLER");
            p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            p.setProperty("inter.broker.listener.name", "PLAINTEXT");
            p.setProperty("log.dirs", data.toString());
            p.setProperty("num.partitions", "6");
            p.setProperty("offsets.topic.replication.factor", "1");
            p.setProperty("offsets.topic.num.partitions", "10");
            p.setProperty("transaction.state.log.replication.factor", "1");
            p.setProperty("transaction.state.log.min.isr", "1");
            p.setProperty("share.coordinator.state.topic.replication.factor", "1");
            p.setProperty("share.coordinator.state.topic.min.isr", "1");
            p.setProperty("group.initial.rebalance.delay.ms", "0");
            p.setProperty("auto.create.topics.enable", "true");
            p.setProperty("log.retention.hours", "168");
            try (var out = Files.newBufferedWriter(props)) {
                p.store(out, "written by the local stack");
            }
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String cp = brokerClasspath();
            Map<String, String> env = Map.of("CLASSPATH", cp);
            if (!Files.exists(data.resolve("meta.properties"))) {
                String clusterId = org.apache.kafka.common.Uuid.randomUuid().toString();
                ManagedProcess format = ManagedProcess.start("kafka-format",
                        List.of(java, "-Xmx256m", "kafka.tools.StorageTool", "format", "-t", clusterId, "-c", props.toString()),
                        env, dir, log);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (format.isAlive() && System.nanoTime() < deadline) {
                    Ports.sleep(100);
                }
                if (!Files.exists(data.resolve("meta.properties"))) {
                    throw new IllegalStateException("kafka storage format failed; see " + log);
                }
            }
            // Full tiered JIT: the broker serves every service's traffic for the whole run, and C1-only code
            // cost it ~40 % of a CPU at 300 mandate creates/s (bench/RESULTS.md).
            Path logging = dir.resolve("logging.properties");
            Files.writeString(logging, BROKER_LOGGING);
            List<String> cmd = new ArrayList<>(List.of(java, "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC",
                    "-Djava.awt.headless=true", "-Djava.util.logging.manager=org.jboss.logmanager.LogManager",
                    "-Dlogging.configuration=" + logging.toUri(), "kafka.Kafka", props.toString()));
            ManagedProcess mp = ManagedProcess.start("kafka", cmd, env, dir, log);
            Ports.awaitListening(port, Duration.ofSeconds(90), mp);
            KafkaServer server = new KafkaServer(mp, port);
            server.awaitReady(Duration.ofSeconds(60));
            return server;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The broker's log: warnings, plus what the group coordinator and log recovery say at INFO (a coordinator
     * that does not come back after a crash stalls every consumer group it owns: bench/FAULTS.md).
     */
    private static final String BROKER_LOGGING = String.join("\n",
            "loggers=kafka.coordinator,org.apache.kafka.coordinator,kafka.log,org.apache.kafka.storage.internals.log",
            "logger.level=WARN",
            "logger.handlers=CONSOLE",
            "logger.kafka.coordinator.level=INFO",
            "logger.org.apache.kafka.coordinator.level=INFO",
            "logger.kafka.log.level=INFO",
            "logger.org.apache.kafka.storage.internals.log.level=INFO",
            "handler.CONSOLE=org.jboss.logmanager.handlers.ConsoleHandler",
            "handler.CONSOLE.properties=autoFlush,target",
            "handler.CONSOLE.autoFlush=true",
            "handler.CONSOLE.target=SYSTEM_OUT",
            "handler.CONSOLE.formatter=PATTERN",
            "formatter.PATTERN=org.jboss.logmanager.formatters.PatternFormatter",
            "formatter.PATTERN.properties=pattern",
            "formatter.PATTERN.pattern=%d{HH:mm:ss.SSS} %-5p [%c] %s%e%n", "");

    /** Jars of Quarkus's logging bootstrap: their JBoss LogManager configurator drops every line in a plain process. */
    private static final Pattern QUARKUS_LOG_BOOTSTRAP = Pattern.compile("^quarkus-(bootstrap-runner|ide-launcher|vertx-latebound-mdc-provider)-");

    /**
     * This JVM's classpath for the broker process, as absolute paths (the broker runs in its own working
     * directory). A jar that only lists the classpath in its manifest (the launcher run with -jar, surefire's
     * booter) is replaced by those entries, so the Quarkus logging bootstrap jars can be left out.
     */
    static String brokerClasspath() {
        List<Path> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Path.of(e).toAbsolutePath();
            String manifestPath = manifestClassPath(p);
            if (manifestPath == null || manifestPath.isBlank()) {
                entries.add(p);
                continue;
            }
            URI base = p.getParent().toUri();
            for (String rel : manifestPath.trim().split("\\s+")) {
                entries.add(Path.of(base.resolve(rel)));
            }
        }
        return entries.stream()
                .filter(p -> !QUARKUS_LOG_BOOTSTRAP.matcher(p.getFileName().toString()).find())
                .map(Path::toString).distinct()
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** The {@code Class-Path} of a jar's manifest, or null (not a jar, unreadable, none). */
    private static String manifestClassPath(Path p) {
        if (!p.toString().endsWith(".jar") || !Files.isRegularFile(p)) {
            return null;
        }
        try (JarFile jar = new JarFile(p.toFile())) {
            Manifest mf = jar.getManifest();
            return mf == null ? null : mf.getMainAttributes().getValue("Class-Path");
        } catch (IOException e) {
            return null;
        }
    }

    /** A restart keeps the controller's port when it is still free, so the KRaft quorum address stays the same. */
    private static int previousControllerPort(Path props) {
        if (Files.exists(props)) {
            Properties old = new Properties();
            try (var in = Files.newBufferedReader(props)) {
                old.load(in);
                String voters = old.getProperty("controller.quorum.voters", "");
                int colon = voters.lastIndexOf(':');
                if (colon > 0) {
                    int port = Integer.parseInt(voters.substring(colon + 1).trim());
                    if (Ports.awaitFree(port, PORT_RELEASE_WAIT)) {
                        return port;
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // fall through to a fresh port
            }
        }
        return Ports.free();
    }

    public String bootstrapServers() {
        return bootstrapServers(port);
    }

    /** The bootstrap address of a local broker listening on {@code port}. */
    public static String bootstrapServers(int port) {
        return "127.0.0.1:" + port;
    }

    public ManagedProcess process() {
        return process;
    }

    private Admin admin() {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        return Admin.create(p);
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try (Admin admin = admin()) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (Exception e) {
                last = e;
                Ports.sleep(200);
            }
        }
        throw new IllegalStateException("kafka not ready; see " + process.log(), last);
    }

    /** Creates every topic of {@link Topics#ALL} that does not exist yet. */
    public void ensureTopics() {
        try (Admin admin = admin()) {
            Set<String> existing = admin.listTopics().names().get(10, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (Topics.TopicSpec spec : Topics.ALL) {
                if (!existing.contains(spec.name())) {
                    NewTopic t = new NewTopic(spec.name(), spec.partitions(), (short) 1);
                    t.configs(spec.compacted()
                            ? Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)
                            : Map.of(TopicConfig.RETENTION_MS_CONFIG, Long.toString(spec.retentionMs())));
                    missing.add(t);
                }
            }
            if (!missing.isEmpty()) {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("cannot create topics", e);
        }
    }

    @Override
    public void close() {
        process.stop();
    }
}
