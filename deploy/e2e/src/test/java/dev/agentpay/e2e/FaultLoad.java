package dev.agentpay.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The steady load of the fault suite, as partners would make it through the gateway: mandate flows
 * (create, both signatures, then complete, start + complete, or dispute; every POST with an
 * {@code Idempotency-Key}, retried on 5xx, timeouts and refused connections) and invoices on the EVM
 * chains paid by a USDC transfer from the development payer, and x402 pay-per-call invoices paid with
 * a signed EIP-3009 authorization (the same {@code X-PAYMENT} resent on 5xx, timeouts and refused
 * connections, as a client that lost the answer would). What was acknowledged is recorded for the checks.
 */
final class FaultLoad {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a flow keeps retrying one step before giving the flow up (counted, not a violation by itself). */
    private static final Duration PATIENCE = Duration.ofSeconds(150);
    static final List<String> PAYMENT_CHAINS = List.of("base", "skale", "polygon", "arbitrum");

    /** A mandate whose last step was acknowledged: the state the API must show. */
    record AckedMandate(String id, String expectedState) {
    }

    /** A transfer sent for an invoice (the chain decides whether it stays). */
    record Payment(String invoiceId, String chain, String txHash, BigInteger atomic) {
    }

    /**
     * One x402 payment (one EIP-3009 authorization) and how its call ended for the client: the
     * invoice id of each 200 (more than one would be a double acceptance), and the final status and
     * x402 {@code errorCode} otherwise.
     */
    record X402Payment(String nonce, List<String> acceptedInvoiceIds, int finalStatus, String finalCode) {
    }

    final Calls calls;
    private final Map<String, String> env;
    private final MandateFlows signer;
    final Map<String, AckedMandate> mandates = new ConcurrentHashMap<>();
    final List<String> invoices = new CopyOnWriteArrayList<>();
    final List<Payment> payments = new CopyOnWriteArrayList<>();
    final List<X402Payment> x402Payments = new CopyOnWriteArrayList<>();
    /** Mandates with a budget charged by the load (issue 28), and charges accepted beyond what a budget allows. */
    final List<String> budgetMandates = new CopyOnWriteArrayList<>();
    final AtomicInteger chargesAccepted = new AtomicInteger();
    final AtomicInteger chargesOverBudget = new AtomicInteger();
    /** Mandates whose budget the load put in escrow on base (issue 30), those it disputed and had resolved, and charges not paid from it. */
    final List<String> escrowMandates = new CopyOnWriteArrayList<>();
    final List<String> escrowResolved = new CopyOnWriteArrayList<>();
    final AtomicInteger escrowChargesNotFromEscrow = new AtomicInteger();
    final AtomicInteger flowsAbandoned = new AtomicInteger();
    final AtomicInteger operations = new AtomicInteger();
    final AtomicInteger paymentSendRetries = new AtomicInteger();
    private volatile boolean running = true;
    private final String payer;
    private final long minPauseMillis;

    private final java.util.Random random;

    FaultLoad(Map<String, String> env, java.util.Random random) {
        this(env, random, Duration.ZERO);
    }

    /**
     * A load whose workers pause at least {@code minPause} between flows (each worker is one flow at a time, so
     * this bounds the rate): the rolling restart's load leaves the machine room to start the replacements.
     */
    FaultLoad(Map<String, String> env, java.util.Random random, Duration minPause) {
        this.minPauseMillis = minPause.toMillis();
        this.env = env;
        this.random = random;
        this.calls = new Calls(env.get("BASE_URL"), env.get("API_KEY"));
        this.signer = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        this.payer = env.get("DEV_PAYER_ADDRESS");
    }

    void stop() {
        running = false;
    }

    Runnable mandateWorker() {
        return worker("mandate", this::mandateFlow, 100);
    }

    Runnable invoiceWorker() {
        return worker("invoice", this::invoiceFlow, 300);
    }

    Runnable budgetWorker() {
        return worker("budget", this::budgetFlow, 300);
    }

    Runnable escrowWorker() {
        return worker("escrow", this::escrowFlow, 500);
    }

    /** Budget 1.00 USDC, charges of 0.25: at most four can be reserved at once. */
    static final String BUDGET_JSON = "{\"amount\":\"1.00\",\"currency\":\"USDC\",\"max_per_charge\":null,\"period\":null}";
    static final int CHARGES_PER_RACE = 6;

    /**
     * A mandate with a budget, signed by both parties, then six charges of 0.25 against its 1.00 sent at once (each
     * with its own Idempotency-Key, retried through faults as a client would): at most four may be accepted. Every
     * other accepted charge is paid on base; the rest expire after 60 s (released). The checks compare budget,
     * charges and invoices in the databases after the drain.
     */
    private void budgetFlow() {
        String id = signedBudgetMandate("budget", "fault suite budget");
        budgetMandates.add(id);
        List<Calls.Answer> race = raceCharges(id, CHARGES_PER_RACE, i -> i % 2 == 0 ? ",\"expires_in\":60" : "");
        int accepted = 0;
        for (int i = 0; i < race.size(); i++) {
            Calls.Answer a = race.get(i);
            if (a.status() == 201) {
                accepted++;
                chargesAccepted.incrementAndGet();
                operations.incrementAndGet();
                if (i % 2 == 1) {
                    try {
                        pay(JSON.readTree(a.body()).at("/data/invoice_id").asText(), "base",
                                JSON.readTree(a.body()).at("/data/paymentDetails"));
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            } else if (a.status() != 409) {
                throw new IllegalStateException("charge answered " + a.status() + " " + a.body());
            }
        }
        if (accepted > 4) {
            chargesOverBudget.addAndGet(accepted - 4);
        }
    }

    /** A mandate with a budget of 1.00 USDC ({@link #BUDGET_JSON}), signed by both parties. */
    private String signedBudgetMandate(String op, String scope) {
        Map<String, Object> body = new java.util.LinkedHashMap<>(Map.of("proposer", "agent-fault-buyer", "counterparty",
                "agent-fault-seller", "scope", scope, "terms", Map.of("plan", "metered"),
                "expiry", Instant.now().plus(2, ChronoUnit.DAYS).toString()));
        body.put("budget", Map.of("amount", "1.00", "currency", "USDC"));
        String id = post(op + ".create", "/v1/mandates", body).get("mandate_id").asText();
        String sig;
        try {
            sig = signer.signature(get("mandate.get", "/v1/mandates/" + id), BUDGET_JSON);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        post(op + ".sign", "/v1/mandates/" + id + "/sign", Map.of("signer", "proposer", "signature", sig));
        post(op + ".sign", "/v1/mandates/" + id + "/sign", Map.of("signer", "counterparty", "signature", sig));
        return id;
    }

    /** {@code n} charges of 0.25 on base sent at once, each with its own Idempotency-Key, retried through faults. */
    private List<Calls.Answer> raceCharges(String mandateId, int n, java.util.function.IntFunction<String> extra) {
        List<java.util.concurrent.CompletableFuture<Calls.Answer>> race = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String charge = "{\"amount\":\"0.25\",\"chain\":\"base\",\"description\":\"fault suite charge\"" + extra.apply(i) + "}";
            String key = UUID.randomUUID().toString();
            race.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> calls.retrying("budget.charge", "POST",
                    "/v1/mandates/" + mandateId + "/charges", charge, Map.of("Idempotency-Key", key), PATIENCE)));
        }
        return race.stream().map(java.util.concurrent.CompletableFuture::join).toList();
    }

    /**
     * Escrow under faults (issue 30): a budget of 1.00 put in the base chain's MandateEscrow by the payer (approve, fund),
     * then three charges of 0.25 sent at once, each paid from the escrow (a release by settlement-watcher,
     * while it and mandate-service are killed); two in three such mandates are then disputed (a freeze) and resolved by the
     * arbiter with a split of what is held. FaultChecks compares each escrow's ledger with the contract.
     */
    private void escrowFlow() {
        String id = signedBudgetMandate("escrow", "fault suite escrow");
        JsonNode fi = post("escrow.instructions", "/v1/mandates/" + id + "/escrow", Map.of("chain", "base", "payer", payer, "method", "approve"));
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_BASE_RPC_URL"));
        for (JsonNode tx : fi.get("transactions")) {
            rpc.transact(payer, tx.get("to").asText(), tx.get("data").asText());
        }
        escrowMandates.add(id);
        operations.incrementAndGet();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!"active".equals(get("mandate.get", "/v1/mandates/" + id).path("escrow").path("state").asText())) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("escrow of " + id + " not seen funded after " + PATIENCE);
            }
            Calls.sleep(500); // polling the service's view of the chain (the condition is the loop's test)
        }
        // three at once, so that 0.25 stays held: a dispute then freezes money and the arbiter has something to split
        for (Calls.Answer a : raceCharges(id, 3, i -> "")) {
            if (a.status() == 201) {
                chargesAccepted.incrementAndGet();
                operations.incrementAndGet();
                try {
                    if (!"escrow".equals(JSON.readTree(a.body()).at("/data/paid_from").asText())) {
                        escrowChargesNotFromEscrow.incrementAndGet();
                    }
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            } else if (a.status() != 409) {
                throw new IllegalStateException("charge answered " + a.status() + " " + a.body());
            }
        }
        if (escrowMandates.size() % 3 != 1) { // two in three: resolves often enough for the mid-resolve kill to meet one
            disputeAndResolve(id);
        }
    }

    /** Disputes the mandate (its escrow freezes), then the arbiter splits what is held, retried through faults. */
    private void disputeAndResolve(String id) {
        Calls.Answer d = calls.retrying("escrow.dispute", "POST", "/v1/mandates/" + id + "/dispute",
                "{\"reason\":\"fault suite dispute\",\"triggered_by\":\"agent-fault-buyer\"}", Map.of(), PATIENCE);
        if (d.status() != 200 && !"disputed".equals(get("mandate.get", "/v1/mandates/" + id).path("state").asText())) {
            throw new IllegalStateException("dispute answered " + d.status() + " " + d.body());
        }
        operations.incrementAndGet();
        Calls admin = new Calls(env.get("MANDATE_SERVICE_URL"), env.get("API_KEY"));
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode escrow = get("mandate.get", "/v1/mandates/" + id).path("escrow");
            if ("resolved".equals(escrow.path("state").asText())) {
                escrowResolved.add(id);
                return;
            }
            if ("frozen".equals(escrow.path("state").asText())) {
                java.math.BigDecimal held = new java.math.BigDecimal(escrow.path("held").asText());
                java.math.BigDecimal toCounterparty = held.divide(java.math.BigDecimal.valueOf(2), 6, java.math.RoundingMode.DOWN);
                String body = "{\"to_counterparty\":\"" + toCounterparty.toPlainString() + "\",\"to_proposer\":\""
                        + held.subtract(toCounterparty).toPlainString() + "\",\"note\":\"fault suite split\"}";
                Calls.Answer r = admin.send("escrow.resolve", "POST", "/admin/v1/disputes/" + id + "/resolve", body,
                        Map.of("x-admin-key", env.get("ADMIN_API_KEY")));
                if (r.status() == 200) {
                    operations.incrementAndGet();
                    escrowResolved.add(id);
                    return;
                }
            }
            Calls.sleep(1000); // until the freeze is on chain and seen (the condition is the loop's test)
        }
        throw new IllegalStateException("dispute of " + id + " not resolved after " + PATIENCE);
    }

    Runnable x402Worker() {
        return worker("x402", this::x402Flow, 500);
    }

    /** Runs {@code flow} until stopped; a flow that gives up is counted and the next one starts. */
    private Runnable worker(String name, Runnable flow, long pauseMillis) {
        return () -> {
            while (running) {
                try {
                    flow.run();
                } catch (RuntimeException e) {
                    flowsAbandoned.incrementAndGet();
                    System.out.println("[load] " + name + " flow abandoned: " + e.getMessage());
                }
                Calls.sleep(Math.max(pauseMillis, minPauseMillis)); // pacing: the load's rate per worker (a clock, no condition)
            }
        };
    }

    private void x402Flow() {
        String body = "{\"amount\":" + random.nextInt(1, 2000) / 100.0 + ",\"description\":\"fault suite x402\"}";
        Calls.Answer challenge = calls.retrying("x402.challenge", "POST", "/api/x402/invoice", body, Map.of(), PATIENCE);
        if (challenge.status() != 402) {
            throw new IllegalStateException("x402 challenge answered " + challenge.status() + " " + challenge.body());
        }
        String header;
        String nonce;
        try {
            JsonNode requirement = dev.agentpay.bench.atrr.Payments.payable(JSON.readTree(challenge.body()));
            header = dev.agentpay.bench.atrr.Payments.pay(JSON, requirement, env.get("DEV_PAYER_PRIVATE_KEY"));
            nonce = JSON.readTree(java.util.Base64.getDecoder().decode(header)).at("/payload/authorization/nonce").asText();
        } catch (Exception e) {
            throw new IllegalStateException("x402 payment could not be built", e);
        }
        // The same payment until a final answer (a 200 or a 4xx): a lost answer must not cost the payer twice.
        List<String> accepted = new java.util.ArrayList<>();
        Calls.Answer a = calls.retrying("x402.pay", "POST", "/api/x402/invoice", body, Map.of("X-PAYMENT", header), PATIENCE);
        String code = null;
        try {
            JsonNode answer = a.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(a.body());
            if (a.ok()) {
                accepted.add(answer.at("/result/id").asText());
                operations.incrementAndGet();
                // Sent again after success: a replay, which must be refused and must not pay anything twice.
                Calls.Answer replay = calls.send("x402.replay", "POST", "/api/x402/invoice", body, Map.of("X-PAYMENT", header));
                if (replay.ok()) {
                    accepted.add(JSON.readTree(replay.body()).at("/result/id").asText());
                }
            } else {
                code = answer.path("errorCode").asText(answer.at("/error/code").asText(null));
            }
        } catch (java.io.IOException e) {
            code = "unparsable answer";
        }
        x402Payments.add(new X402Payment(nonce, List.copyOf(accepted), a.status(), code));
    }

    private JsonNode post(String op, String path, Object body) {
        try {
            String json = body == null ? "{}" : JSON.writeValueAsString(body);
            Calls.Answer a = calls.retrying(op, "POST", path, json, Map.of("Idempotency-Key", UUID.randomUUID().toString()), PATIENCE);
            if (!a.ok()) {
                throw new IllegalStateException(op + " " + path + " answered " + a.status() + " " + a.body());
            }
            operations.incrementAndGet();
            return JSON.readTree(a.body()).get("data");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode get(String op, String path) {
        Calls.Answer a = calls.retrying(op, "GET", path, null, Map.of(), PATIENCE);
        if (!a.ok()) {
            throw new IllegalStateException(op + " " + path + " answered " + a.status() + " " + a.body());
        }
        try {
            return JSON.readTree(a.body()).get("data");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void mandateFlow() {
        Map<String, Object> body = Map.of("proposer", "agent-fault-a", "counterparty", "agent-fault-b",
                "scope", "fault suite load", "terms", Map.of("amount", random.nextInt(1, 500), "currency", "USDC"),
                "expiry", Instant.now().plus(2, ChronoUnit.DAYS).toString());
        String id = post("mandate.create", "/v1/mandates", body).get("mandate_id").asText();
        mandates.put(id, new AckedMandate(id, "proposed"));
        String sig;
        try {
            sig = signer.signature(get("mandate.get", "/v1/mandates/" + id));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        post("mandate.sign", "/v1/mandates/" + id + "/sign", Map.of("signer", "proposer", "signature", sig));
        mandates.put(id, new AckedMandate(id, "signed_by_proposer"));
        post("mandate.sign", "/v1/mandates/" + id + "/sign", Map.of("signer", "counterparty", "signature", sig));
        mandates.put(id, new AckedMandate(id, "signed_by_both"));
        switch (random.nextInt(3)) {
            case 0 -> {
                post("mandate.complete", "/v1/mandates/" + id + "/complete", null);
                mandates.put(id, new AckedMandate(id, "completed"));
            }
            case 1 -> {
                post("mandate.start", "/v1/mandates/" + id + "/start", null);
                mandates.put(id, new AckedMandate(id, "in_progress"));
                post("mandate.complete", "/v1/mandates/" + id + "/complete", null);
                mandates.put(id, new AckedMandate(id, "completed"));
            }
            default -> {
                post("mandate.dispute", "/v1/mandates/" + id + "/dispute", Map.of("reason", "fault suite dispute"));
                mandates.put(id, new AckedMandate(id, "disputed"));
            }
        }
    }

    private void invoiceFlow() {
        String chain = PAYMENT_CHAINS.get(random.nextInt(PAYMENT_CHAINS.size()));
        double amount = random.nextInt(100, 5000) / 100.0;
        // Creating an invoice has no Idempotency-Key: a lost answer may leave an invoice nobody pays (harmless).
        Calls.Answer a = calls.retrying("invoice.create", "POST", "/v1/invoices",
                "{\"amount\":" + amount + ",\"chain\":\"" + chain + "\",\"description\":\"fault suite\"}", Map.of(), PATIENCE);
        if (!a.ok()) {
            throw new IllegalStateException("invoice create answered " + a.status() + " " + a.body());
        }
        operations.incrementAndGet();
        JsonNode inv;
        try {
            inv = JSON.readTree(a.body()).get("data");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        String id = inv.get("id").asText();
        pay(id, chain, inv.get("paymentDetails"));
    }

    /** Pays an invoice's exact amount to its own address with the dev payer (retried while the chain is down). */
    private void pay(String id, String chain, JsonNode pd) {
        invoices.add(id);
        BigInteger atomic = new BigInteger(pd.get("payableAtomic").asText());
        String data = "0xa9059cbb" + EvmRpc.word(pd.get("paymentAddress").asText()) + EvmRpc.word(atomic);
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_" + chain.toUpperCase(Locale.ROOT) + "_RPC_URL"));
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (running || System.nanoTime() < deadline) {
            try {
                var tx = JSON.createObjectNode().put("from", payer).put("to", pd.get("usdcAddress").asText()).put("data", data);
                String hash = rpc.call("eth_sendTransaction", tx).asText();
                payments.add(new Payment(id, chain, hash, atomic));
                operations.incrementAndGet();
                return;
            } catch (RuntimeException e) {
                // the chain is down (killed): the payer tries again, as a wallet would
                paymentSendRetries.incrementAndGet();
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Calls.sleep(500); // a wallet's retry pace while the chain is down (the retry itself is the check)
            }
        }
    }

    /** A chain's USDC address, for the checks. */
    static String usdc(String chain) {
        return UsdcInstaller.canonical(chain).orElseThrow().address();
    }
}
