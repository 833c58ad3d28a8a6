package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.solana.SolanaNode;
import java.io.IOException;
import java.net.http.HttpClient;
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

    /** The second anchor chain's chain id: base (issue 31, "Several anchor chains"). */
    public static final long BASE_CHAIN_ID = 8453;

    /**
     * Services in start order, with their database, default port and the module whose jar runs them: the six
     * services, and anchor-service once more for the second anchor chain (one deployment per anchor chain,
     * anchor-service README "Several anchor chains").
     */
    public record Service(String name, String database, int defaultPort, String module) {
        public Service(String name, String database, int defaultPort) {
            this(name, database, defaultPort, name);
        }
    }

    public static final List<Service> SERVICES = List.of(
            new Service("mandate-service", "mandate", 8081),
            new Service("invoice-service", "invoice", 8082),
            new Service("settlement-watcher", "watcher", 8083),
            new Service("anchor-service", "anchor", 8084),
            new Service("discovery-service", "discovery", 8085),
            new Service("webhook-dispatcher", "webhook", 8086),
            new Service("anchor-service-base", "anchor_base", 8087, "anchor-service"));

    private static final ObjectMapper JSON = new ObjectMapper();
    /** When the launcher started (its step timings count from here). */
    static final long T0 = System.nanoTime();

    private final Path root = RepoPaths.root();
    private final Path local;
    private final Path logs;
    private final Path data;
    private final List<AutoCloseable> started = new ArrayList<>();
    private final Map<String, String> env = new LinkedHashMap<>();
    private final Map<String, Integer> servicePorts = new ConcurrentHashMap<>();
    /** Every instance's port per service, instance 1 first ({@code --replicas N}). */
    private final Map<String, List<Integer>> instancePorts = new LinkedHashMap<>();
    private int replicas = 1;
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
                System.err.println("usage: local-stack [run|stop|reset] [--gateway-port N] [--fixed-ports | --any-ports] [--state-dir DIR] [--replicas N]");
                System.exit(2);
            }
        }
    }

    /** Command-line options. */
    record Options(int gatewayPort, boolean fixedPorts, boolean exitWhenReady, Path stateDir, boolean anyPorts, int replicas,
            boolean gatewayPortGiven) {

        Options(int gatewayPort, boolean fixedPorts, boolean exitWhenReady, Path stateDir) {
            this(gatewayPort, fixedPorts, exitWhenReady, stateDir, false, 1, false);
        }

        static Options parse(String[] args) {
            int gw = 8080;
            boolean fixed = false;
            boolean exit = false;
            boolean any = false;
            boolean gwGiven = false;
            Path state = null;
            int replicas = 1;
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--gateway-port" -> {
                        gw = Integer.parseInt(args[++i]);
                        gwGiven = true;
                    }
                    case "--fixed-ports" -> fixed = true;
                    // Never the default ports: several stacks on one machine (tests) then cannot take a
                    // port another stack's restarting part had released a moment before.
                    case "--any-ports" -> any = true;
                    case "--exit-when-ready" -> exit = true;
                    case "--state-dir" -> state = Path.of(args[++i]);
                    // N instances of every service behind the gateway's balancer (issue 29)
                    case "--replicas" -> {
                        replicas = Integer.parseInt(args[++i]);
                        if (replicas < 1 || replicas > 9) {
                            throw new IllegalArgumentException("--replicas must be 1 to 9");
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(gw, fixed, exit, state, any, replicas, gwGiven);
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

        Map<String, String> secrets = DevCredentials.load(local);
        env.put("BASE_URL", "");
        env.putAll(secrets);
        // The facilitator's Solana key goes to the facilitator only (its address is X402_SOLANA_FEE_PAYER).
        env.remove("SOLANA_FACILITATOR_SECRET_KEY");
        env.remove("SOLANA_FACILITATOR_ADDRESS");

        // What depends on nothing starts at once, side by side: PostgreSQL, Kafka, the EVM chains and the Solana chain.
        CompletableFuture<PostgresServer> pg = Steps.async("postgres", () -> {
            PostgresServer s = PostgresServer.start(data.resolve("postgres"), port(options, 5432), true);
            SERVICES.forEach(svc -> s.ensureDatabase(svc.database()));
            return s;
        });
        int kafkaPort = port(options, 9092);
        CompletableFuture<KafkaServer> kafka = Steps.async("kafka", () -> {
            KafkaServer k = KafkaServer.start(data.resolve("kafka"), kafkaPort, logs.resolve("kafka.log"));
            k.ensureTopics();
            return k;
        });
        Map<String, CompletableFuture<AnvilNode>> anvils = new LinkedHashMap<>();
        anvils.put("anchor", Steps.async("anvil anchor (84532)", () -> anvil("anchor", ANCHOR_CHAIN_ID, options, 8545)));
        int i = 1;
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            int preferred = 8545 + i++;
            anvils.put(c.chain(), Steps.async("anvil " + c.chain() + " (" + c.chainId() + ")", () -> anvil(c.chain(), c.chainId(), options, preferred)));
        }
        int solanaPort = port(options, 8899);
        CompletableFuture<SolanaNode> solanaStart = Steps.async("solana (LiteSVM)", () -> startSolana(solanaPort, secrets));
        // Each part is supervised: if it dies, it is started again on the same port and data.
        PostgresServer postgres = pg.join();
        supervised("postgres", postgres, () -> PostgresServer.start(data.resolve("postgres"), postgres.port(), true));
        env.put("POSTGRES_PORT", Integer.toString(postgres.port()));
        String kafkaBootstrap = KafkaServer.bootstrapServers(kafkaPort);
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafkaBootstrap);
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
        SolanaNode solana = solanaStart.join();
        supervised("solana", solana.process(), () -> startSolana(solanaPort, secrets).process());

        // The facilitator needs only the base chain and Solana: it starts while the contracts are installed.
        int facilitatorPort = port(options, 4020);
        CompletableFuture<ManagedProcess> facilitatorStart = Steps.async("x402 facilitator",
                () -> facilitator(chains.get("base"), solana, facilitatorPort, secrets));
        ChainSetup setup = new ChainSetup(local, secrets);
        Steps.timed("contracts", () -> {
            setup.install(chains, env);
            return null;
        });

        env.put("SOLANA_RPC_URL", solana.rpcUrl());
        env.put("SOLANA_USDC_MINT", SOLANA_USDC_MINT);
        env.put("SOLANA_PAYMENT_ADDRESS", secrets.get("SOLANA_PAYMENT_ADDRESS"));
        env.put("SOLANA_DEV_PAYER_SECRET_KEY", secrets.get("SOLANA_DEV_PAYER_SECRET_KEY"));
        env.put("SOLANA_DEV_PAYER_ADDRESS", secrets.get("SOLANA_DEV_PAYER_ADDRESS"));
        // 400 ms slots: a 200 ms poll keeps detection after finality well under the 1.5 s target
        env.put("SOLANA_POLL_INTERVAL", "PT0.2S");

        ManagedProcess facilitator = facilitatorStart.join();
        supervised("x402-facilitator", facilitator, () -> facilitator(chains.get("base"), solana, facilitatorPort, secrets));
        env.put("X402_FACILITATOR_URL", "http://127.0.0.1:" + facilitatorPort);
        // The services need the broker (and its topics) up. Starting them while it starts was tried and measured: on two
        // cores the broker then took 27 s instead of 5 s and the stack was no sooner ready (bench/RESULTS.md, "Stack start").
        superviseKafka(kafka.join(), kafkaPort);
        env.put("X402_SOLANA_FEE_PAYER", secrets.get("SOLANA_FACILITATOR_ADDRESS"));


        // Services: start all six at once (each waits for nothing but its own database and Kafka).
        int gatewayPort = gatewayPort(options);
        String baseUrl = "http://127.0.0.1:" + gatewayPort;
        env.put("BASE_URL", baseUrl);
        replicas = options.replicas();
        for (Service svc : SERVICES) {
            servicePorts.put(svc.name(), port(options, svc.defaultPort()));
            List<Integer> ports = new ArrayList<>();
            ports.add(servicePorts.get(svc.name()));
            for (int n = 2; n <= replicas; n++) {
                ports.add(port(options, svc.defaultPort() + 100 * (n - 1)));
            }
            instancePorts.put(svc.name(), ports);
        }
        // With several instances, services reach each other through one balanced port per service (as through a
        // Kubernetes Service), every path included: the public gateway routes only the public ones.
        Map<String, String> serviceUrls = new LinkedHashMap<>();
        if (replicas > 1) {
            Map<String, Integer> proxyPorts = new LinkedHashMap<>();
            for (Service svc : SERVICES) {
                proxyPorts.put(svc.name(), Ports.free());
            }
            ServiceProxies proxies = Steps.timed("service proxies", () -> ServiceProxies.start(proxyPorts, instancePorts));
            started.add(proxies);
            SERVICES.forEach(svc -> serviceUrls.put(svc.name(), proxies.url(svc.name())));
        } else {
            servicePorts.forEach((name, p) -> serviceUrls.put(name, "http://127.0.0.1:" + p));
        }
        ServiceLauncher services = new ServiceLauncher(root, logs, serviceUrls, instancePorts, env, http);
        // Instance 1 of each service keeps the service's name (logs, pids); instance n is "<service>-n".
        List<String> instanceNames = new ArrayList<>();
        List<CompletableFuture<ManagedProcess>> starts = new ArrayList<>();
        List<Supervisor.Starter> starters = new ArrayList<>();
        for (Service svc : SERVICES) {
            for (int n = 1; n <= replicas; n++) {
                int instance = n;
                String name = ServiceLauncher.instanceName(svc, instance);
                instanceNames.add(name);
                starters.add(() -> services.start(svc, instance, postgres, kafkaBootstrap, baseUrl));
                starts.add(Steps.async(name, () -> services.start(svc, instance, postgres, kafkaBootstrap, baseUrl)));
            }
        }
        for (int s = 0; s < instanceNames.size(); s++) {
            supervisor.supervise(instanceNames.get(s), starts.get(s).join(), starters.get(s));
        }
        // The services depend on each other only through Kafka and PostgreSQL: they stop side by side
        // (each leaves its consumer groups), before the infrastructure does.
        started.add(() -> CompletableFuture.allOf(instanceNames.stream()
                .map(name -> CompletableFuture.runAsync(() -> supervisor.stop(name)))
                .toArray(CompletableFuture[]::new)).join());
        LauncherFiles.recordPids(local);
        servicePorts.forEach((name, p) -> env.put(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL", "http://127.0.0.1:" + p));
        // Every instance's URL (instance 1 first; <SERVICE>_URL stays instance 1): the stack contract, README.
        env.put("REPLICAS", Integer.toString(replicas));
        instancePorts.forEach((name, ports) -> env.put(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URLS",
                String.join(",", ports.stream().map(p -> "http://127.0.0.1:" + p).toList())));

        Gateway gateway = Steps.timed("gateway", () -> Gateway.startBalanced(gatewayPort, Gateway.readRoutes(Gateway.routesFile()), instancePorts));
        started.add(gateway);

        Steps.timed("dev partners", () -> {
            DevCredentials.bootstrapPartners(http, "http://127.0.0.1:" + servicePorts.get("mandate-service"),
                    env.get("BASE_URL"), secrets);
            return null;
        });

        Map<String, String> out = new LinkedHashMap<>(env);
        out.keySet().removeIf(k -> k.startsWith("_"));
        // the partner console (discovery-service README "Pages"), a key of the stack contract (local-stack.md)
        out.put("CONSOLE_URL", baseUrl + "/console");
        StackEnv.write(local.resolve("stack.env"), out, "written by deploy/local when every part was ready");
        System.out.printf("%n==> stack ready in %.1f s: %s%n%n", Steps.seconds(), baseUrl);
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

    /**
     * The gateway's port: {@code --gateway-port N} when given (N if free, else any free port); with
     * {@code --any-ports} and no {@code --gateway-port}, never the default 8080 (issue 33: it used to take 8080
     * whenever free, although any-ports promises no default port).
     */
    static int gatewayPort(Options options) {
        if (options.anyPorts() && !options.gatewayPortGiven()) {
            return Ports.free();
        }
        return Ports.isFree(options.gatewayPort()) ? options.gatewayPort() : Ports.free();
    }

    private int port(Options options, int preferred) {
        return options.fixedPorts() ? preferred : options.anyPorts() ? Ports.free() : Ports.freeOr(preferred);
    }

    private AnvilNode anvil(String name, long chainId, Options options, int preferred) throws IOException {
        return startAnvil(name, chainId, port(options, preferred));
    }

    /** Registers the broker with the supervisor (before the services, so it stops after them) and its watchdog. */
    private void superviseKafka(KafkaServer broker, int kafkaPort) {
        supervised("kafka", broker.process(), () -> KafkaServer.start(data.resolve("kafka"), kafkaPort, logs.resolve("kafka.log")).process());
        // A group coordinator that never comes back after an unclean broker restart is healed by a clean one.
        started.add(new KafkaGroupWatchdog(broker::bootstrapServers, () -> supervisor.current("kafka"), Duration.ofSeconds(120)));
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
            Readiness.awaitHttp(http, url + "/supported", Duration.ofSeconds(30), p);
        } catch (RuntimeException e) {
            p.stop();
            throw e;
        }
        return p;
    }





    /** Stops a previous launcher (and, if it died hard, the children it left behind). */
    void stopPrevious(boolean verbose) throws Exception {
        LauncherFiles.stopPrevious(local, verbose);
    }

    /** {@code reset}: see {@link LauncherFiles#reset}. */
    void reset() throws Exception {
        LauncherFiles.reset(local, data);
    }

    private void recordPidsQuietly() {
        try {
            LauncherFiles.recordPids(local);
        } catch (IOException e) {
            System.err.println("cannot record child pids: " + e.getMessage());
        }
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

}
