package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import io.restassured.path.json.JsonPath;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.ECKeyPair;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;

/**
 * A mandate's budget held in {@code MandateEscrow} on a real local chain, end to end through the gateway (issue 30's
 * "done when"): the payer funds it with the official USDC token by EIP-3009 (signed here with the payer's key, submitted
 * by someone else: the payer spends no gas); the escrow streams and the counterparty withdraws what vested; twelve charges
 * are paid from the escrow (the service releases them; the invoices settle with {@code settlementSource: "escrow"}); a
 * dispute freezes it on chain and refuses further charges; both sides add evidence; the arbiter resolves with a split.
 * After every step the service's ledger equals the contract's totals. A second mandate, funded by approve + fund, is
 * refunded by its funder after expiry plus the contract's grace <em>with every service stopped</em> (SIGSTOP): the
 * operator can no longer move it, the funder alone takes it back, and the services see the refund when they run again.
 *
 * <p>On arbitrum, after {@link FaultIT} (the refund moves that chain's clock past the grace, {@code evm_increaseTime}):
 * later classes (StackRestartIT, StackStopIT) pay on base only.
 */
@Order(95)
class EscrowIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAIN = "arbitrum";
    private static final List<String> SERVICES = List.of("mandate-service", "invoice-service", "settlement-watcher", "anchor-service",
            "discovery-service", "webhook-dispatcher");
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** The local escrows' operator: anvil account #6 (deploy/local ChainSetup, settlement-watcher's ESCROW_OPERATOR_PRIVATE_KEY). */
    private static final String OPERATOR = "0x976EA74026E726554dB657fA54763abd0C3a0aa9";

    @Test
    void fundedByEip3009ChargedFromEscrowStreamedDisputedAndResolvedThenAnotherRefundedByItsFunderAlone() throws Exception {
        Map<String, String> env = SharedStack.env();
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_ARBITRUM_RPC_URL"));
        String usdc = env.get("CHAIN_ARBITRUM_USDC_ADDRESS");
        String escrow = env.get("CHAIN_ARBITRUM_ESCROW_ADDRESS");
        String payer = env.get("DEV_PAYER_ADDRESS");
        MandateFlows flows = new MandateFlows(base, key, env.get("SIGNING_SECRET"));

        // --- 1. a mandate with a budget of 10 USDC, funded by EIP-3009, streamed over two minutes
        String id = budgetMandate(base, key, flows, "10.00", Instant.now().plus(1, ChronoUnit.DAYS));
        long start = chainTime(rpc) + 3;
        long end = start + 120;
        JsonPath fi = given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("chain", CHAIN, "payer", payer, "method", "eip3009",
                        "stream", Map.of("start", Instant.ofEpochSecond(start).toString(), "end", Instant.ofEpochSecond(end).toString())))
                .post("/v1/mandates/" + id + "/escrow").then().statusCode(200).extract().jsonPath();
        assertThat(fi.getString("data.contract")).isEqualToIgnoringCase(escrow);
        assertThat(fi.getString("data.token")).isEqualToIgnoringCase(usdc);
        assertThat(fi.getString("data.amount_atomic")).isEqualTo("10000000");
        String escrowId = fi.getString("data.escrow_id");
        String counterparty = fi.getString("data.counterparty");
        Map<String, Object> typed = fi.getMap("data.typed_data");
        byte[] digest = new StructuredDataEncoder(JSON.writeValueAsString(typed)).hashStructuredData();
        Sign.SignatureData sig = Sign.signMessage(digest, ECKeyPair.create(Numeric.toBigInt(env.get("DEV_PAYER_PRIVATE_KEY"))), false);
        List<Map<String, Object>> txs = fi.getList("data.transactions");
        assertThat(txs).hasSize(1);
        String calldata = txs.get(0).get("data_prefix") + Numeric.toHexStringNoPrefixZeroPadded(BigInteger.valueOf(sig.getV()[0] & 0xff), 64)
                + Numeric.toHexStringNoPrefix(sig.getR()) + Numeric.toHexStringNoPrefix(sig.getS());
        BigInteger payerBefore = UsdcInstaller.balanceOf(rpc, usdc, payer);
        String payerNonceBefore = rpc.call("eth_getTransactionCount", payer, "latest").asText();
        // anyone submits it (anvil's account 0 here): the payer signs and spends no gas
        rpc.transact(UsdcInstaller.OWNER, (String) txs.get(0).get("to"), calldata);
        assertThat(rpc.call("eth_getTransactionCount", payer, "latest").asText()).as("the payer sent no transaction").isEqualTo(payerNonceBefore);
        assertThat(UsdcInstaller.balanceOf(rpc, usdc, payer)).isEqualTo(payerBefore.subtract(BigInteger.valueOf(10_000_000)));

        JsonNode funded = awaitEscrow(flows, id, e -> "active".equals(e.path("state").asText()));
        assertThat(funded.path("funded").asText()).isIn("10", "10.0", "10.00", "10.000000");
        assertThat(funded.path("escrow_id").asText()).isEqualToIgnoringCase(escrowId);
        ledgerEqualsChain(rpc, escrow, escrowId, funded);

        // --- 2. the stream vests; the counterparty (the chain's payment address) withdraws without the operator
        await("the stream vested a while").atMost(WAIT).pollInterval(Duration.ofMillis(500)).until(() -> chainTime(rpc) >= start + 8);
        asAccount(rpc, counterparty, () -> rpc.transact(counterparty, escrow, MandateEscrowAbi.withdraw(escrowId)));
        JsonNode withdrawn = awaitEscrow(flows, id, e -> atomic(e.path("withdrawn").asText()).signum() > 0);
        ledgerEqualsChain(rpc, escrow, escrowId, withdrawn);

        // --- 3. charges, each paid from the escrow: the service releases it, the invoice settles from it. Two for the
        // journey (1.00, 2.00) and, one after the other, ten of 0.10 timed from the request to the invoice SETTLED
        List<String> charges = new ArrayList<>();
        List<Long> millis = new ArrayList<>();
        List<String> amounts = new ArrayList<>(List.of("1.00", "2.00"));
        for (int k = 0; k < 10; k++) {
            amounts.add("0.10");
        }
        for (String amount : amounts) {
            long t0 = System.nanoTime();
            JsonPath c = given().baseUri(base).header("x-api-key", key).header("Idempotency-Key", UUID.randomUUID().toString())
                    .contentType("application/json").body(Map.of("amount", amount, "chain", CHAIN, "description", "escrow e2e " + amount))
                    .post("/v1/mandates/" + id + "/charges").then().statusCode(201).extract().jsonPath();
            assertThat(c.getString("data.paid_from")).as("a charge under a funded mandate").isEqualTo("escrow");
            String invoice = c.getString("data.invoice_id");
            charges.add(c.getString("data.charge_id"));
            JsonNode inv = await("invoice " + invoice + " settled from escrow").atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
                JsonNode i = JSON.readTree(given().baseUri(base).header("x-api-key", key).get("/v1/invoices/" + invoice).then().statusCode(200)
                        .extract().asString()).get("data");
                return "SETTLED".equals(i.path("status").asText()) ? i : null;
            }, Objects::nonNull);
            millis.add((System.nanoTime() - t0) / 1_000_000);
            assertThat(inv.at("/paymentDetails/settlementSource").asText()).isEqualTo("escrow");
            // its txHash is the release: a Released log of this escrow in that transaction
            JsonNode receipt = rpc.call("eth_getTransactionReceipt", inv.at("/paymentDetails/txHash").asText());
            boolean releasedThere = false;
            for (JsonNode log : receipt.path("logs")) {
                List<String> topics = new ArrayList<>();
                log.path("topics").forEach(x -> topics.add(x.asText()));
                releasedThere |= log.path("address").asText().equalsIgnoreCase(escrow) && MandateEscrowAbi.decode(topics, log.path("data").asText())
                        .filter(ev -> ev.kind() == MandateEscrowAbi.Kind.RELEASED && ev.escrowId().equalsIgnoreCase(escrowId)).isPresent();
            }
            assertThat(releasedThere).as("invoice " + invoice + "'s txHash is a release of the escrow").isTrue();
        }
        List<Long> sorted = millis.stream().sorted().toList();
        StringBuilder figures = new StringBuilder("From a charge's request to its invoice SETTLED from escrow (the release at the chain's"
                + " depth, 1 s blocks, depth 1; polled every 50 ms), " + millis.size() + " charges one after the other: ")
                .append(millis).append(" ms; median ").append(sorted.get(sorted.size() / 2)).append(" ms, max ")
                .append(sorted.get(sorted.size() - 1)).append(" ms\n");
        // the charge-to-release time (issue 30's figure; polled every 250 ms, so up to 250 ms late); load average beside it
        figures.append("\nload average: ").append(Files.readString(Path.of("/proc/loadavg")).trim()).append('\n');
        Files.writeString(dev.agentpay.localstack.RepoPaths.root().resolve("deploy/e2e/target/escrow-figures.md"), figures.toString());
        JsonNode released = awaitEscrow(flows, id, e -> atomic(e.path("released").asText()).equals(BigInteger.valueOf(4_000_000)));
        ledgerEqualsChain(rpc, escrow, escrowId, released);
        for (String charge : charges) {
            // every release is one charge: its ref (keccak-256 of the charge id) is used on chain, and can pay no more
            assertThat(new BigInteger(rpc.ethCall(escrow, MandateEscrowAbi.refUsed(MandateEscrowAbi.ref(charge))).substring(2), 16))
                    .as("ref of " + charge + " used").isEqualTo(BigInteger.ONE);
        }

        // --- 4. a dispute freezes the escrow on chain; no charge (so no release) while it is open
        given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("reason", "the second batch never arrived", "triggered_by", "agent-escrow-buyer"))
                .post("/v1/mandates/" + id + "/dispute").then().statusCode(200);
        given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("amount", "1.00", "chain", CHAIN, "description", "after the dispute"))
                .post("/v1/mandates/" + id + "/charges").then().statusCode(409);
        JsonNode frozen = awaitEscrow(flows, id, e -> "frozen".equals(e.path("state").asText()));
        ledgerEqualsChain(rpc, escrow, escrowId, frozen);
        for (String party : List.of("proposer", "counterparty")) {
            given().baseUri(base).header("x-api-key", key).contentType("application/json")
                    .body(Map.of("party", party, "text", "evidence of the " + party, "links", List.of("https://example.com/" + party)))
                    .post("/v1/mandates/" + id + "/dispute/evidence").then().statusCode(201);
        }
        BigDecimal held = new BigDecimal(frozen.path("held").asText());
        assertThat(held.signum()).as("the dispute holds money").isPositive();
        BigDecimal toCounterparty = new BigDecimal("1.5");
        String admin = env.get("MANDATE_SERVICE_URL");
        JsonNode mismatch = JSON.readTree(given().baseUri(admin).header("x-admin-key", env.get("ADMIN_API_KEY")).contentType("application/json")
                .body(Map.of("to_counterparty", held.toPlainString(), "to_proposer", "1")).post("/admin/v1/disputes/" + id + "/resolve")
                .then().statusCode(400).extract().asString());
        assertThat(mismatch.at("/error/code").asText()).isEqualTo("resolution_sum_mismatch");
        given().baseUri(admin).header("x-admin-key", env.get("ADMIN_API_KEY")).contentType("application/json")
                .body(Map.of("to_counterparty", toCounterparty.toPlainString(), "to_proposer", held.subtract(toCounterparty).toPlainString(),
                        "note", "half of the second batch was delivered"))
                .post("/admin/v1/disputes/" + id + "/resolve").then().statusCode(200);
        JsonNode resolved = awaitEscrow(flows, id, e -> "resolved".equals(e.path("state").asText()));
        assertThat(atomic(resolved.path("held").asText())).isZero();
        ledgerEqualsChain(rpc, escrow, escrowId, resolved);
        MandateEscrowAbi.Totals t = totals(rpc, escrow, escrowId);
        assertThat(t.released()).as("the charges and the counterparty's share").isEqualTo(BigInteger.valueOf(4_000_000).add(atomic("1.5")));
        assertThat(t.refunded()).as("the proposer's share").isEqualTo(atomic(held.subtract(toCounterparty).toPlainString()));
        assertThat(flows.get(id).path("state").asText()).isEqualTo("resolved");

        // --- 5. a second mandate, funded by approve + fund, refunded after expiry + grace by its funder, services stopped
        Instant expiry = Instant.now().plusSeconds(60);
        String second = budgetMandate(base, key, flows, "2.00", expiry);
        JsonPath fa = given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("chain", CHAIN, "payer", payer, "method", "approve")).post("/v1/mandates/" + second + "/escrow").then()
                .statusCode(200).extract().jsonPath();
        String secondId = fa.getString("data.escrow_id");
        long expiresAt = fa.getLong("data.expires_at");
        for (Map<String, Object> tx : fa.<Map<String, Object>>getList("data.transactions")) {
            rpc.transact(payer, (String) tx.get("to"), (String) tx.get("data"));
        }
        awaitEscrow(flows, second, e -> "active".equals(e.path("state").asText()));
        BigInteger beforeRefund = UsdcInstaller.balanceOf(rpc, usdc, payer);

        List<Long> pids = servicePids();
        try {
            for (long pid : pids) {
                FailoverIT.signal("STOP", pid);
            }
            // the chain's clock past expiry + grace (the local contract's grace: 3600 s)
            long jump = expiresAt + dev.agentpay.localstack.chain.EscrowInstaller.LOCAL_GRACE_SECONDS + 5 - chainTime(rpc);
            rpc.call("evm_increaseTime", jump);
            rpc.mine(1);
            // the operator can no longer move it
            assertThat(reverts(rpc, OPERATOR, escrow, MandateEscrowAbi.release(secondId, BigInteger.ONE, MandateEscrowAbi.ref("late"))))
                    .as("a release after expiry + grace").isTrue();
            assertThat(reverts(rpc, counterparty, escrow, MandateEscrowAbi.refund(secondId))).as("a refund by anyone but the funder").isTrue();
            rpc.transact(payer, escrow, MandateEscrowAbi.refund(secondId));
            assertThat(UsdcInstaller.balanceOf(rpc, usdc, payer)).isEqualTo(beforeRefund.add(BigInteger.valueOf(2_000_000)));
            MandateEscrowAbi.Totals r = totals(rpc, escrow, secondId);
            assertThat(r.state()).isEqualTo(MandateEscrowAbi.State.REFUNDED);
            assertThat(r.held()).isZero();
        } finally {
            for (long pid : pids) {
                FailoverIT.signal("CONT", pid);
            }
        }
        JsonNode refunded = awaitEscrow(flows, second, e -> "refunded".equals(e.path("state").asText()));
        assertThat(atomic(refunded.path("refunded").asText())).isEqualTo(BigInteger.valueOf(2_000_000));
        ledgerEqualsChain(rpc, escrow, secondId, refunded);
    }

    /** A mandate with a budget of {@code amount} USDC, signed by both parties. */
    private static String budgetMandate(String base, String key, MandateFlows flows, String amount, Instant expiry) throws Exception {
        Map<String, Object> body = new LinkedHashMap<>(Map.of("proposer", "agent-escrow-buyer", "counterparty", "agent-escrow-seller",
                "scope", "batch data delivery", "terms", Map.of("plan", "batches"), "expiry", expiry.toString()));
        body.put("budget", Map.of("amount", amount, "currency", "USDC"));
        String id = given().baseUri(base).header("x-api-key", key).contentType("application/json").body(JSON.writeValueAsString(body))
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        String sig = flows.signature(flows.get(id), "{\"amount\":\"" + amount + "\",\"currency\":\"USDC\",\"max_per_charge\":null,\"period\":null}");
        flows.sign(id, "proposer", sig);
        flows.sign(id, "counterparty", sig);
        return id;
    }

    /** The mandate's {@code escrow} view once {@code until} holds. */
    private static JsonNode awaitEscrow(MandateFlows flows, String id, java.util.function.Predicate<JsonNode> until) {
        return await("escrow of " + id).atMost(WAIT).pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> {
            JsonNode e = flows.get(id).path("escrow");
            return !e.isMissingNode() && !e.isNull() && until.test(e) ? e : null;
        }, Objects::nonNull);
    }

    /** The service's ledger (the escrow view) equals the contract's totals. */
    private static void ledgerEqualsChain(EvmRpc rpc, String escrow, String escrowId, JsonNode view) {
        MandateEscrowAbi.Totals t = totals(rpc, escrow, escrowId);
        assertThat(atomic(view.path("funded").asText())).as("funded").isEqualTo(t.funded());
        assertThat(atomic(view.path("released").asText())).as("released").isEqualTo(t.released());
        assertThat(atomic(view.path("withdrawn").asText())).as("withdrawn").isEqualTo(t.withdrawn());
        assertThat(atomic(view.path("refunded").asText())).as("refunded").isEqualTo(t.refunded());
        assertThat(atomic(view.path("held").asText())).as("held").isEqualTo(t.held());
        assertThat(view.path("state").asText()).as("state").isEqualTo(t.state().value());
    }

    private static MandateEscrowAbi.Totals totals(EvmRpc rpc, String escrow, String escrowId) {
        return MandateEscrowAbi.decodeTotals(rpc.ethCall(escrow, MandateEscrowAbi.totals(escrowId)));
    }

    static BigInteger atomic(String usdc) {
        return new BigDecimal(usdc).movePointRight(6).toBigIntegerExact();
    }

    private static long chainTime(EvmRpc rpc) {
        return Long.decode(rpc.call("eth_getBlockByNumber", "latest", false).get("timestamp").asText());
    }

    /** Whether {@code data} from {@code from} to {@code to} reverts (a dry run: nothing is sent). */
    private static boolean reverts(EvmRpc rpc, String from, String to, String data) {
        Map<String, String> call = Map.of("from", from, "to", to, "data", data);
        try {
            rpc.call("eth_call", call, "latest");
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** Runs {@code r} with anvil sending as {@code account} (impersonated, given gas money). */
    private static void asAccount(EvmRpc rpc, String account, Runnable r) {
        rpc.call("anvil_setBalance", account, "0xde0b6b3a7640000");
        rpc.call("anvil_impersonateAccount", account);
        try {
            r.run();
        } finally {
            rpc.call("anvil_stopImpersonatingAccount", account);
        }
    }

    /** The pids of the six services, from the launcher's pid files. */
    private static List<Long> servicePids() throws Exception {
        Path pids = SharedStack.process().stateDir.resolve("pids");
        List<Long> out = new ArrayList<>();
        for (String s : SERVICES) {
            out.add(Long.parseLong(Files.readString(pids.resolve(s + ".pid")).trim()));
        }
        return out;
    }
}
