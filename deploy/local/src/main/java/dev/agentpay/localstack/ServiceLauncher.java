package dev.agentpay.localstack;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Starts one of the six services from its built jar with the stack's settings, and waits until it is ready. */
public final class ServiceLauncher {

    private final Path root;
    private final Path logs;
    private final Map<String, String> serviceUrls;
    private final Map<String, List<Integer>> instancePorts;
    private final Map<String, String> env;
    private final HttpClient http;

    /**
     * @param serviceUrls   the URL each service is reached at by the others (instance 1's port, or with
     *                      {@code --replicas N} the service's balanced port: {@link ServiceProxies})
     * @param instancePorts every instance's port per service, instance 1 first ({@code --replicas N})
     */
    ServiceLauncher(Path root, Path logs, Map<String, String> serviceUrls, Map<String, List<Integer>> instancePorts,
            Map<String, String> env, HttpClient http) {
        this.root = root;
        this.logs = logs;
        this.serviceUrls = serviceUrls;
        this.instancePorts = instancePorts;
        this.env = env;
        this.http = http;
    }

    /** The JVM options of every service unless {@code SERVICE_JAVA_OPTS} replaces them (root README, "How a service starts"). */
    public static final String DEFAULT_JAVA_OPTS =
            "-XX:+UseSerialGC -Xms32m -Xmx384m -Xss512k -XX:ReservedCodeCacheSize=96m -XX:+ExitOnOutOfMemoryError";

    /** The AppCDS archive {@code package} writes next to the jar (quarkus.package.jar.appcds.enabled, service-commons). */
    static final String APPCDS_ARCHIVE = "app-cds.jsa";

    /**
     * The command that starts a service's jar: {@code java [-XX:SharedArchiveFile=<archive>] <javaOpts> -jar <jar>}.
     * The archive flag (absolute path) comes only when the build wrote the archive next to the jar, and before
     * {@code javaOpts}, so {@code SERVICE_JAVA_OPTS} can still turn it off ({@code -Xshare:off}) or name another
     * archive (the last {@code -XX:SharedArchiveFile} wins). An archive the JVM cannot use (written by another JDK
     * build, jars changed since) costs a warning in the service's log, not the start.
     */
    static List<String> command(Path java, String javaOpts, Path jar) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.toString());
        Path archive = jar.toAbsolutePath().getParent().resolve(APPCDS_ARCHIVE);
        if (Files.isRegularFile(archive)) {
            cmd.add("-XX:SharedArchiveFile=" + archive);
        }
        for (String opt : javaOpts.trim().split("\\s+")) {
            if (!opt.isEmpty()) { // SERVICE_JAVA_OPTS="" means no options, not one empty argument
                cmd.add(opt);
            }
        }
        cmd.add("-jar");
        cmd.add(jar.toAbsolutePath().toString());
        return cmd;
    }

    /** Instance 1 keeps the service's name; instance n is {@code <service>-n} (logs, pid files, supervisor). */
    static String instanceName(LocalStack.Service svc, int instance) {
        return instance == 1 ? svc.name() : svc.name() + "-" + instance;
    }

    /** Starts instance {@code instance} (1-based) of a service. */
    ManagedProcess start(LocalStack.Service svc, int instance, PostgresServer pg, String kafkaBootstrap, String baseUrl) {
        Path jar = root.resolve(svc.module()).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build first (deploy/local/run builds it)");
        }
        int port = instancePorts.get(svc.name()).get(instance - 1);
        Map<String, String> e = new LinkedHashMap<>();
        e.put("HTTP_PORT", Integer.toString(port));
        e.put("DB_HOST", "127.0.0.1");
        e.put("DB_PORT", Integer.toString(pg.port()));
        e.put("DB_NAME", svc.database());
        e.put("DB_USER", PostgresServer.USER);
        e.put("DB_PASSWORD", PostgresServer.PASSWORD);
        e.put("KAFKA_BOOTSTRAP_SERVERS", kafkaBootstrap);
        e.put("ADMIN_API_KEY", env.get("ADMIN_API_KEY"));
        e.put("PUBLIC_BASE_URL", baseUrl);
        e.put("GATEWAY_URL", baseUrl);
        // With several instances a service reaches another one through that service's balanced port
        // (ServiceProxies, like a Kubernetes Service), not instance 1, which may be the one restarting; not
        // through the public gateway either, which does not route internal paths such as /admin.
        serviceUrls.forEach((name, url) -> e.put(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL", url));
        e.put("HOSTNAME", instanceName(svc, instance)); // names the instance in leases and logs
        // Chain settings are public; the anchor signer key goes to anchor-service only.
        env.forEach((k, v) -> {
            if ((k.startsWith("CHAIN_") || k.startsWith("SOLANA_") || k.startsWith("ANCHOR_") || k.startsWith("X402_"))
                    && !k.endsWith("_SECRET_KEY")) {
                e.put(k, v);
            }
        });
        if (svc.name().equals("anchor-service")) {
            e.put("ANCHOR_SIGNER_KEY", ChainSetup.ANCHOR_SIGNER_KEY);
            // the key a rotation moves to (POST /admin/v1/anchor/signers/rotate), so the local stack can rotate
            e.put("ANCHOR_NEXT_SIGNER_KEY", ChainSetup.ANCHOR_NEXT_SIGNER_KEY);
            e.put("ANCHOR_CONSUMER_GROUP", "anchor-service");
        }
        if (svc.name().equals("anchor-service-base")) {
            // the second anchor chain's deployment: the same service on base, with its own contract, signer,
            // database and consumer group (anchor-service README "Several anchor chains")
            env.forEach((k, v) -> {
                if (k.startsWith("ANCHOR_BASE_")) {
                    e.put("ANCHOR_" + k.substring("ANCHOR_BASE_".length()), v);
                }
            });
            e.put("ANCHOR_SIGNER_KEY", ChainSetup.ANCHOR_BASE_SIGNER_KEY);
            e.remove("ANCHOR_NEXT_SIGNER_KEY");
            e.put("ANCHOR_CONSUMER_GROUP", "anchor-service-" + LocalStack.BASE_CHAIN_ID);
        }
        if (svc.name().equals("settlement-watcher")) {
            // pays the gas of sweeps (deposit addresses -> seller wallet); holds nothing but gas
            e.put("SWEEPER_PRIVATE_KEY", ChainSetup.SWEEPER_KEY);
            // sends the mandate escrows' release, freeze and resolve (issue 30); the contract pays only the two parties
            e.put("ESCROW_OPERATOR_PRIVATE_KEY", ChainSetup.ESCROW_OPERATOR_KEY);
        }
        e.put("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
        // Local receivers are plain http on loopback (webhook-dispatcher README: the local stack allows both).
        e.put("WEBHOOK_ALLOW_HTTP", "true");
        String javaOpts = System.getenv().getOrDefault("SERVICE_JAVA_OPTS", DEFAULT_JAVA_OPTS);
        List<String> cmd = command(Path.of(System.getProperty("java.home"), "bin", "java"), javaOpts, jar);
        // Run in target/quarkus-app: the AppCDS archive names the jar as Quarkus started it when writing the
        // archive ("quarkus-run.jar", relative), and the JVM looks for it from its working directory.
        ManagedProcess p = ManagedProcess.start(instanceName(svc, instance), cmd, e, jar.getParent(),
                logs.resolve(instanceName(svc, instance) + ".log"));
        try {
            Readiness.awaitHttp(http, "http://127.0.0.1:" + port + "/q/health/ready", Duration.ofSeconds(300), p);
        } catch (RuntimeException notReady) {
            p.stop();
            throw notReady;
        }
        return p;
    }
}
