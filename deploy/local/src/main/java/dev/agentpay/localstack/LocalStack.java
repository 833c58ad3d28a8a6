package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.localstack.chain.UsdcInstaller;
import org.p2p.solanaj.utils.Base58;
import dev.agentpay.localstack.solana.SolanaKeys;
import dev.agentpay.localstack.solana.SolanaNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * The one command that runs the whole system on this machine, for real: PostgreSQL, Kafka, five
 * anvil chains with USDC at the canonical addresses, the anchor contract, the x402 facilitator, a
 * local Solana chain (LiteSVM behind JSON-RPC), the six services and the gateway. Writes {@code .local/stack.env}, prints it, and
 * stops everything on Ctrl-C (or {@code stop}). Data lives under {@code .local/data}, so a second start
 * finds it again.
 */
public final class LocalStack {

    /** Env-variable prefix of a chain's settings, e.g. {@code CHAIN_BASE}. */
    static String envPrefix(UsdcInstaller.Canonical chain) {
        return "CHAIN_" + chain.chain().toUpperCase(Locale.ROOT);
    }

    public static final long ANCHOR_CHAIN_ID = 84532;
    public static final String SOLANA_USDC_MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

    /** Services in start order, with their database and default port. */
    public record Service(String name, String database, int defaultPort) {
    }

    public static final List<Service> SERVICES = List.of(
            new Service("mandate-service", "mandate", 8081),
            new Service("invoice-service", "invoice", 8082),
            new Service("settlement-watcher", "watcher", 8083),
            new Service("anchor-service", "anchor", 8084),
            new Service("discovery-service", "discovery", 8085),
            new Service("webhook-dispatcher", "webhook", 8086));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = System.nanoTime();

    private final Path root = RepoPaths.root();
    private final Path local;
    private final Path logs;
    private final Path data;
    private final List<AutoCloseable> started = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final Map<String, Integer> servicePorts = new ConcurrentHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Supervisor supervisor;
    /** Whether PostgreSQL's data existed when this launcher started (the databases remember the chains). */
    private boolean hadData;

    LocalStack(Path stateDir) {
        this.local = stateDir;
        this.logs = local.resolve("logs");
        this.data = local.resolve("data");
    }

    public static void main(String[] args) throws Exception {
        String command = args.length > 0 ? args[0] : "run";
        Options options = Options.parse(args);
        LocalStack stack = new LocalStack(options.stateDir() != null ? options.stateDir().toAbsolutePath()
                : RepoPaths.root().resolve(".local"));
        switch (command) {
            case "run" -> {
                try {
                    stack.run(options);
                } catch (StateLost e) {
                    System.err.println("\n" + e.getMessage());
                    System.exit(1);
                } catch (Exception | Error e) {
                    // A failed start stops what did start (shutdown hooks) instead of leaving it supervised.
                    e.printStackTrace();
                    System.exit(1);
                }
            }
            case "stop" -> stack.stopPrevious(true);
            case "reset" -> stack.reset();
            default -> {
                System.err.println("usage: local-stack [run|stop|reset] [--gateway-port N] [--fixed-ports | --any-ports] [--state-dir DIR]");
                System.exit(2);
            }
        }
    }

    /** Command-line options. */
    record Options(int gatewayPort, boolean fixedPorts, boolean exitWhenReady, Path stateDir, boolean anyPorts) {

        Options(int gatewayPort, boolean fixedPorts, boolean exitWhenReady, Path stateDir) {
            this(gatewayPort, fixedPorts, exitWhenReady, stateDir, false);
        }

        static Options parse(String[] args) {
            int gw = 8080;
            boolean fixed = false;
            boolean exit = false;
            boolean any = false;
            Path state = null;
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--gateway-port" -> gw = Integer.parseInt(args[++i]);
                    case "--fixed-ports" -> fixed = true;
                    // Never the default ports: several stacks on one machine (tests) then cannot take a
                    // port another stack's restarting part had released a moment before.
                    case "--any-ports" -> any = true;
                    case "--exit-when-ready" -> exit = true;
                    case "--state-dir" -> state = Path.of(args[++i]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(gw, fixed, exit, state, any);
        }
    }

    void run(Options options) throws Exception {
        Files.createDirectories(logs);
        stopPrevious(false);
        hadData = Files.isDirectory(data.resolve("postgres"));
        Files.writeString(local.resolve("launcher.pid"), Long.toString(ProcessHandle.current().pid()));
        Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "local-stack-shutdown"));
        ManagedProcess.ownerStopsInOrder(stopped);
        supervisor = new Supervisor(local, this::recordPidsQuietly);

        Map<String, String> secrets = secrets();
        env.put("BASE_URL", "");
        env.putAll(secrets);
        // The facilitator's Solana key goes to the facilitator only (its address is X402_SOLANA_FEE_PAYER).
        env.remove("SOLANA_FACILITATOR_SECRET_KEY");
        env.remove("SOLANA_FACILITATOR_ADDRESS");

        // Infrastructure: PostgreSQL, Kafka and the chains start side by side.
        CompletableFuture<PostgresServer> pg = async("postgres", () -> {
            PostgresServer s = PostgresServer.start(data.resolve("postgres"), port(options, 5432), true);
            SERVICES.forEach(svc -> s.ensureDatabase(svc.database()));
            return s;
        });
        CompletableFuture<KafkaServer> kafka = async("kafka", () -> {
            KafkaServer k = KafkaServer.start(data.resolve("kafka"), port(options, 9092), logs.resolve("kafka.log"));
            k.ensureTopics();
            return k;
        });
        Map<String, CompletableFuture<AnvilNode>> anvils = new LinkedHashMap<>();
        anvils.put("anchor", async("anvil anchor (84532)", () -> anvil("anchor", ANCHOR_CHAIN_ID, options, 8545)));
        int i = 1;
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            int preferred = 8545 + i++;
            anvils.put(c.chain(), async("anvil " + c.chain() + " (" + c.chainId() + ")", () -> anvil(c.chain(), c.chainId(), options, preferred)));
        }
        // Each part is supervised: if it dies, it is started again on the same port and data.
        PostgresServer postgres = pg.join();
        supervised("postgres", postgres, () -> PostgresServer.start(data.resolve("postgres"), postgres.port(), true));
        env.put("POSTGRES_PORT", Integer.toString(postgres.port()));
        KafkaServer broker = kafka.join();
        int kafkaPort = Integer.parseInt(broker.bootstrapServers().substring(broker.bootstrapServers().lastIndexOf(':') + 1));
        supervised("kafka", broker.process(), () -> KafkaServer.start(data.resolve("kafka"), kafkaPort, logs.resolve("kafka.log")).process());
        env.put("KAFKA_BOOTSTRAP_SERVERS", broker.bootstrapServers());
        // A group coordinator that never comes back after an unclean broker restart is healed by a clean one.
        started.add(new KafkaGroupWatchdog(broker::bootstrapServers, () -> supervisor.current("kafka"), Duration.ofSeconds(120)));
        Map<String, AnvilNode> chains = new LinkedHashMap<>();
        try {
            anvils.forEach((n, f) -> {
                AnvilNode node = f.join();
                supervised("anvil-" + n, node, () -> startAnvil(n, node.chainId(), node.port()));
                chains.put(n, node);
            });
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof StateLost lost ? lost : e;
        }
        saveChainsEvery(chains.keySet(), Duration.ofSeconds(5));

        ChainSetup setup = new ChainSetup(local, secrets);
        timed("contracts", () -> {
            setup.install(chains, env);
            return null;
        });

        int solanaPort = port(options, 8899);
        SolanaNode solana = timed("solana (LiteSVM)", () -> startSolana(solanaPort, secrets));
        supervised("solana", solana.process(), () -> startSolana(solanaPort, secrets).process());
        env.put("SOLANA_RPC_URL", solana.rpcUrl());
        env.put("SOLANA_USDC_MINT", SOLANA_USDC_MINT);
        env.put("SOLANA_PAYMENT_ADDRESS", secrets.get("SOLANA_PAYMENT_ADDRESS"));
        env.put("SOLANA_DEV_PAYER_SECRET_KEY", secrets.get("SOLANA_DEV_PAYER_SECRET_KEY"));
        env.put("SOLANA_DEV_PAYER_ADDRESS", secrets.get("SOLANA_DEV_PAYER_ADDRESS"));
        // 400 ms slots: a 200 ms poll keeps detection after finality well under the 1.5 s target
        env.put("SOLANA_POLL_INTERVAL", "PT0.2S");

        int facilitatorPort = port(options, 4020);
        ManagedProcess facilitator = timed("x402 facilitator", () -> facilitator(chains.get("base"), solana, facilitatorPort, secrets));
        supervised("x402-facilitator", facilitator, () -> facilitator(chains.get("base"), solana, facilitatorPort, secrets));
        env.put("X402_SOLANA_FEE_PAYER", secrets.get("SOLANA_FACILITATOR_ADDRESS"));


        // Services: start all six at once (each waits for nothing but its own database and Kafka).
        int gatewayPort = Ports.isFree(options.gatewayPort()) ? options.gatewayPort() : Ports.free();
        String baseUrl = "http://127.0.0.1:" + gatewayPort;
        env.put("BASE_URL", baseUrl);
        for (Service svc : SERVICES) {
            servicePorts.put(svc.name(), port(options, svc.defaultPort()));
        }
        List<CompletableFuture<ManagedProcess>> services = new ArrayList<>();
        for (Service svc : SERVICES) {
            services.add(async(svc.name(), () -> startService(svc, postgres, broker, baseUrl)));
        }
        for (int s = 0; s < SERVICES.size(); s++) {
            Service svc = SERVICES.get(s);
            supervisor.supervise(svc.name(), services.get(s).join(), () -> startService(svc, postgres, broker, baseUrl));
        }
        // The services depend on each other only through Kafka and PostgreSQL: they stop side by side
        // (each leaves its consumer groups), before the infrastructure does.
        started.add(() -> CompletableFuture.allOf(SERVICES.stream()
                .map(svc -> CompletableFuture.runAsync(() -> supervisor.stop(svc.name())))
                .toArray(CompletableFuture[]::new)).join());
        recordPids();
        servicePorts.forEach((name, p) -> env.put(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL", "http://127.0.0.1:" + p));

        Gateway gateway = timed("gateway", () -> Gateway.start(gatewayPort, Gateway.readRoutes(Gateway.routesFile()), servicePorts));
        started.add(gateway);

        timed("dev partners", () -> {
            bootstrapPartners(secrets);
            return null;
        });

        Map<String, String> out = new LinkedHashMap<>(env);
        out.keySet().removeIf(k -> k.startsWith("_"));
        StackEnv.write(local.resolve("stack.env"), out, "written by deploy/local when every part was ready");
        System.out.printf("%n==> stack ready in %.1f s: %s%n%n", seconds(), baseUrl);
        out.forEach((k, v) -> System.out.println(k + "=" + v));
        Path cwd = Path.of("").toAbsolutePath();
        Path shown = local.startsWith(cwd) ? cwd.relativize(local) : local;
        String stop = shown.equals(Path.of(".local")) ? "" : " --state-dir " + shown;
        System.out.printf("%n(also in %s; logs in %s; Ctrl-C or `deploy/local/run stop%s` stops everything)%n",
                shown.resolve("stack.env"), shown.resolve("logs"), stop);
        // the pages for people (discovery-service README "Pages"): sign in with API_KEY above
        System.out.printf("%npartner console: %s/console  (sign in with API_KEY)%npayment pages:   %s/checkout/<invoice id>%n",
                baseUrl, baseUrl);
        System.out.flush();
        if (options.exitWhenReady()) {
            System.exit(0);
        }
        new CountDownLatch(1).await();
    }

    private int port(Options options, int preferred) {
        return options.fixedPorts() ? preferred : options.anyPorts() ? Ports.free() : Ports.freeOr(preferred);
    }

    private AnvilNode anvil(String name, long chainId, Options options, int preferred) throws IOException {
        return startAnvil(name, chainId, port(options, preferred));
    }

    /** Registers a started part with the supervisor and stops it (for good) on shutdown. */
    private void supervised(String name, Supervisor.Supervised first, Supervisor.Starter restart) {
        supervisor.supervise(name, first, restart);
        started.add(() -> supervisor.stop(name));
    }

    /**
     * Starts a chain on its saved state. A chain whose state is gone or is not the one last saved, while
     * the databases (which remember its transactions and contracts) are kept, is never replaced by a
     * fresh chain: the start stops with {@link StateLost}, naming {@code reset}.
     */
    AnvilNode startAnvil(String name, long chainId, int port) throws IOException {
        Path state = data.resolve("anvil-" + name + ".json");
        boolean remembered = Files.exists(AnvilNode.markFile(state)) || hadData;
        if (Files.exists(state)) {
            boolean readable;
            try {
                JsonNode doc = JSON.readTree(state.toFile());
                readable = doc != null && doc.isObject();
            } catch (IOException e) {
                readable = false;
            }
            if (!readable && remembered) {
                throw new StateLost(name, chainId, "its state file " + state + " is unreadable");
            }
            if (!readable) {
                // Nothing else remembers this chain yet (no databases): a fresh chain is consistent.
                Path aside = state.resolveSibling(state.getFileName() + ".corrupt");
                Files.move(state, aside, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                System.out.printf("           anvil %s: unreadable state moved to %s; starting the chain fresh%n", name, aside);
            }
        } else if (remembered) {
            throw new StateLost(name, chainId, "its state file " + state + " is missing");
        }
        Files.createDirectories(data);
        AnvilNode node = AnvilNode.start(name, chainId, port, 1, state, logs.resolve("anvil-" + name + ".log"));
        String wrong;
        try {
            wrong = node.verifyMark();
        } catch (RuntimeException e) {
            wrong = "its saved block could not be read: " + e.getMessage();
        }
        if (wrong != null) {
            node.process().stop();
            throw new StateLost(name, chainId, wrong);
        }
        return node;
    }

    /** A chain whose state is lost while the rest of the stack remembers it. */
    static final class StateLost extends IllegalStateException {
        StateLost(String chain, long chainId, String what) {
            super("anvil " + chain + " (chain " + chainId + "): " + what + ".\n"
                    + "The databases and Kafka of this stack still hold data that refers to this chain (anchored\n"
                    + "mandates, invoices and their transfers), so it is not replaced by a fresh chain silently.\n"
                    + "Put the state file back, or wipe every part's state together and start fresh with\n"
                    + "    deploy/local/run reset   (add the same --state-dir if you gave one)");
        }
    }

    /**
     * Snapshots every chain's state every {@code period} (atomically: {@link AnvilNode#saveState}), so a
     * chain killed hard loses at most that much; the ordered stop saves once more before stopping it.
     */
    private void saveChainsEvery(java.util.Collection<String> names, Duration period) {
        var saver = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "anvil-state-saver");
            t.setDaemon(true);
            return t;
        });
        Map<String, String> lastError = new ConcurrentHashMap<>();
        saver.scheduleWithFixedDelay(() -> {
            for (String n : names) {
                if (supervisor.current("anvil-" + n) instanceof AnvilNode node) {
                    try {
                        node.saveState();
                        lastError.remove(n);
                    } catch (IOException | RuntimeException e) {
                        if (!String.valueOf(e.getMessage()).equals(lastError.put(n, String.valueOf(e.getMessage())))) {
                            System.err.printf("anvil %s: state snapshot failed: %s%n", n, e.getMessage());
                        }
                    }
                }
            }
        }, period.toMillis(), period.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        // Registered after the chains: the ordered stop ends the saver before it stops (and saves) them.
        started.add(saver::shutdownNow);
    }

    /** The local Solana chain; its state (accounts, history, clock) is kept in {@code data/solana.json}. */
    private SolanaNode startSolana(int port, Map<String, String> secrets) throws IOException {
        Files.createDirectories(data);
        return SolanaNode.start(port, data.resolve("solana.json"), logs.resolve("solana.log"),
                secrets.get("SOLANA_DEV_PAYER_SECRET_KEY"), SolanaNode.FINALITY_LAG, List.of(secrets.get("SOLANA_FACILITATOR_ADDRESS")),
                List.of(secrets.get("SOLANA_PAYMENT_ADDRESS")));
    }

    private ManagedProcess facilitator(AnvilNode base, SolanaNode solana, int port, Map<String, String> secrets) {
        ManagedProcess p = ManagedProcess.start("x402-facilitator", List.of("node", "facilitator.mjs"),
                Map.of("PORT", Integer.toString(port), "BASE_RPC_URL", base.rpcUrl(),
                        "FACILITATOR_PRIVATE_KEY", ChainSetup.FACILITATOR_KEY,
                        "SOLANA_RPC_URL", solana.rpcUrl(),
                        "SOLANA_FEE_PAYER_SECRET_KEY", secrets.get("SOLANA_FACILITATOR_SECRET_KEY")),
                RepoPaths.nodeDir(), logs.resolve("x402-facilitator.log"));
        String url = "http://127.0.0.1:" + port;
        try {
            awaitHttp(url + "/supported", Duration.ofSeconds(30), p);
        } catch (RuntimeException e) {
            p.stop();
            throw e;
        }
        env.put("X402_FACILITATOR_URL", url);
        return p;
    }

    private ManagedProcess startService(Service svc, PostgresServer pg, KafkaServer kafka, String baseUrl) {
        Path jar = root.resolve(svc.name()).resolve("target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build first (deploy/local/run builds it)");
        }
        int port = servicePorts.get(svc.name());
        Map<String, String> e = new LinkedHashMap<>();
        e.put("HTTP_PORT", Integer.toString(port));
        e.put("DB_HOST", "127.0.0.1");
        e.put("DB_PORT", Integer.toString(pg.port()));
        e.put("DB_NAME", svc.database());
        e.put("DB_USER", PostgresServer.USER);
        e.put("DB_PASSWORD", PostgresServer.PASSWORD);
        e.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        e.put("ADMIN_API_KEY", env.get("ADMIN_API_KEY"));
        e.put("PUBLIC_BASE_URL", baseUrl);
        e.put("GATEWAY_URL", baseUrl);
        servicePorts.forEach((name, p) -> e.put(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL", "http://127.0.0.1:" + p));
        // Chain settings are public; the anchor signer key goes to anchor-service only.
        env.forEach((k, v) -> {
            if ((k.startsWith("CHAIN_") || k.startsWith("SOLANA_") || k.startsWith("ANCHOR_") || k.startsWith("X402_"))
                    && !k.endsWith("_SECRET_KEY")) {
                e.put(k, v);
            }
        });
        if (svc.name().equals("anchor-service")) {
            e.put("ANCHOR_SIGNER_KEY", ChainSetup.ANCHOR_SIGNER_KEY);
        }
        if (svc.name().equals("settlement-watcher")) {
            // pays the gas of sweeps (deposit addresses -> seller wallet); holds nothing but gas
            e.put("SWEEPER_PRIVATE_KEY", ChainSetup.SWEEPER_KEY);
        }
        e.put("WEBHOOK_ALLOW_PRIVATE_TARGETS", "true");
        // Local receivers are plain http on loopback (webhook-dispatcher README: the local stack allows both).
        e.put("WEBHOOK_ALLOW_HTTP", "true");
        String javaOpts = System.getenv().getOrDefault("SERVICE_JAVA_OPTS",
                "-XX:+UseSerialGC -Xms32m -Xmx384m -Xss512k -XX:ReservedCodeCacheSize=96m -XX:+ExitOnOutOfMemoryError");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(javaOpts.trim().split("\\s+")));
        cmd.add("-jar");
        cmd.add(jar.toString());
        ManagedProcess p = ManagedProcess.start(svc.name(), cmd, e, root.resolve(svc.name()), logs.resolve(svc.name() + ".log"));
        try {
            awaitHttp("http://127.0.0.1:" + port + "/q/health/ready", Duration.ofSeconds(300), p);
        } catch (RuntimeException notReady) {
            p.stop();
            throw notReady;
        }
        return p;
    }

    private void bootstrapPartners(Map<String, String> secrets) throws Exception {
        String mandate = "http://127.0.0.1:" + servicePorts.get("mandate-service");
        for (String[] p : new String[][] {{"dev-partner-1", "Development partner 1", "API_KEY", "SIGNING_SECRET"},
                {"dev-partner-2", "Development partner 2", "API_KEY_2", "SIGNING_SECRET_2"}}) {
            String body = JSON.writeValueAsString(Map.of("name", p[1], "api_key", secrets.get(p[2]), "signing_secret", secrets.get(p[3])));
            // a service's first requests after its start can take long on a loaded machine (class loading, JIT):
            // 10 s timed out on a shared 2-core machine; the PUT is idempotent
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(mandate + "/admin/partners/" + p[0]))
                    .timeout(Duration.ofSeconds(45))
                    .header("content-type", "application/json")
                    .header("x-admin-key", secrets.get("ADMIN_API_KEY"))
                    .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() / 100 != 2) {
                throw new IllegalStateException("partner bootstrap of " + p[0] + " failed: " + res.statusCode() + " " + res.body());
            }
        }
        // The registry reaches every service over Kafka; wait until the gateway's services accept the key.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String probe = env.get("BASE_URL") + "/v1/invoices?limit=1";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(probe)).timeout(Duration.ofSeconds(5))
                    .header("x-api-key", secrets.get("API_KEY")).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() != 401) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the development API key was not accepted within 60 s");
    }

    /** Development secrets, generated on the first start and kept in {@code .local/secrets.env}. */
    private Map<String, String> secrets() {
        Path file = local.resolve("secrets.env");
        Map<String, String> s = StackEnv.read(file);
        boolean changed = false;
        changed |= s.putIfAbsent("API_KEY", ApiKeys.generate()) == null;
        changed |= s.putIfAbsent("SIGNING_SECRET", ApiKeys.randomHex(32)) == null;
        changed |= s.putIfAbsent("API_KEY_2", ApiKeys.generate()) == null;
        changed |= s.putIfAbsent("SIGNING_SECRET_2", ApiKeys.randomHex(32)) == null;
        changed |= s.putIfAbsent("ADMIN_API_KEY", "adm_" + ApiKeys.randomHex(32)) == null;
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            changed |= s.putIfAbsent(envPrefix(c) + "_PAYMENT_ADDRESS", "0x" + ApiKeys.randomHex(20)) == null;
        }
        changed |= s.putIfAbsent("SOLANA_PAYMENT_ADDRESS", Base58.encode(randomBytes(32))) == null;
        if (!s.containsKey("SOLANA_DEV_PAYER_SECRET_KEY")) {
            SolanaKeys.Keypair payer = SolanaKeys.generate();
            s.put("SOLANA_DEV_PAYER_SECRET_KEY", payer.secret());
            s.put("SOLANA_DEV_PAYER_ADDRESS", payer.address());
            changed = true;
        }
        if (!s.containsKey("SOLANA_FACILITATOR_SECRET_KEY")) {
            // the local x402 facilitator's Solana fee payer (extra.feePayer of the Solana rail)
            SolanaKeys.Keypair feePayer = SolanaKeys.generate();
            s.put("SOLANA_FACILITATOR_SECRET_KEY", feePayer.secret());
            s.put("SOLANA_FACILITATOR_ADDRESS", feePayer.address());
            changed = true;
        }
        if (changed) {
            StackEnv.write(file, s, "development secrets of the local stack; never use them anywhere else");
        }
        return s;
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new java.security.SecureRandom().nextBytes(b);
        return b;
    }

    private void awaitHttp(String url, Duration timeout, ManagedProcess owner) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (owner != null && !owner.isAlive()) {
                throw new IllegalStateException(owner.name() + " exited; see " + owner.log());
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Ports.sleep(150);
        }
        throw new IllegalStateException(url + " not ready after " + timeout + (owner == null ? "" : "; see " + owner.log()));
    }

    private void recordPidsQuietly() {
        try {
            recordPids();
        } catch (IOException e) {
            System.err.println("cannot record child pids: " + e.getMessage());
        }
    }

    private void recordPids() throws IOException {
        StringBuilder sb = new StringBuilder();
        ProcessHandle.current().descendants().forEach(h -> sb.append(h.pid()).append('\n'));
        Files.writeString(local.resolve("children.pid"), sb.toString());
    }

    /** Stops a previous launcher (and, if it died hard, the children it left behind). */
    void stopPrevious(boolean verbose) throws Exception {
        Path pidFile = local.resolve("launcher.pid");
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            var handle = ProcessHandle.of(pid).filter(h -> h.pid() != ProcessHandle.current().pid());
            if (handle.isPresent() && handle.get().info().command().map(c -> c.contains("java")).orElse(false)) {
                if (verbose) {
                    System.out.println("stopping the local stack (pid " + pid + ")");
                }
                handle.get().destroy();
                // The launcher stops its parts in order (services leave their groups, chains save their
                // state, then Kafka and PostgreSQL): wait for all of it, not a fixed minute.
                try {
                    handle.get().onExit().get(4, java.util.concurrent.TimeUnit.MINUTES);
                } catch (java.util.concurrent.TimeoutException e) {
                    System.out.println("the local stack (pid " + pid + ") did not stop within 4 minutes; killing it");
                    handle.get().destroyForcibly();
                    handle.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
                }
            } else if (verbose) {
                System.out.println("no running local stack");
            }
        } else if (verbose) {
            System.out.println("no running local stack");
        }
        Path children = local.resolve("children.pid");
        if (Files.exists(children)) {
            // Left behind by a launcher that died hard: killed, and waited for, so that the next start finds
            // their ports and data directories free (a broker still exiting held Kafka's port: issue 16).
            List<ProcessHandle> left = new ArrayList<>();
            for (String line : Files.readAllLines(children)) {
                if (!line.isBlank()) {
                    ProcessHandle.of(Long.parseLong(line.trim())).ifPresent(left::add);
                }
            }
            left.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle h : left) {
                try {
                    h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    System.out.println("process " + h.pid() + " did not exit after SIGKILL");
                }
            }
            Files.delete(children);
        }
    }

    /**
     * {@code reset}: stops a running stack, then wipes every part's state together (PostgreSQL, Kafka,
     * every chain's state and marks, the remembered contract address, stack.env), so the next start
     * begins consistent and empty. Development secrets ({@code secrets.env}) and logs are kept.
     */
    void reset() throws Exception {
        stopPrevious(true);
        if (Files.isDirectory(data)) {
            try (var paths = Files.walk(data)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.deleteIfExists(local.resolve("stack.env"));
        System.out.println("wiped " + data + " (databases, Kafka, chains) and stack.env; secrets.env and logs kept");
    }

    /** Counted down when {@link #shutdown} has stopped every part in order. */
    private final CountDownLatch stopped = new CountDownLatch(1);

    /** Stops the parts in reverse start order: gateway, services, then what they depend on. */
    private void shutdown() {
        try {
            stopInOrder();
        } finally {
            stopped.countDown();
        }
    }

    private void stopInOrder() {
        System.out.println("\nstopping the local stack ...");
        if (supervisor != null) {
            supervisor.halt();
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                System.err.println("stop failed: " + e.getMessage());
            }
        }
        try {
            Files.deleteIfExists(local.resolve("launcher.pid"));
            Files.deleteIfExists(local.resolve("children.pid"));
        } catch (IOException e) {
            // best effort
        }
        System.out.println("stopped.");
    }

    /** A step that may throw. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    private <T> CompletableFuture<T> async(String name, Step<T> step) {
        return CompletableFuture.supplyAsync(() -> timed(name, step));
    }

    private <T> T timed(String name, Step<T> step) {
        long t = System.nanoTime();
        System.out.printf("[%6.1fs] %-28s starting%n", seconds(), name);
        try {
            T r = step.run();
            System.out.printf("[%6.1fs] %-28s ready in %.1f s%n", seconds(), name, (System.nanoTime() - t) / 1e9);
            return r;
        } catch (Exception e) {
            System.out.printf("[%6.1fs] %-28s FAILED: %s%n", seconds(), name, e.getMessage());
            throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        }
    }

    private static double seconds() {
        return (System.nanoTime() - T0) / 1e9;
    }

    static <T> Supplier<T> unchecked(Step<T> s) {
        return () -> {
            try {
                return s.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static JsonNode json(String s) throws IOException {
        return JSON.readTree(s);
    }
}
