package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 on the real stack: every EVM invoice its own payment address. Invoices of one amount on one
 * chain, paid in reverse order by plain transfers of exactly that amount, each settle with their own
 * transaction; a transfer of that amount to the seller wallet settles none; a partial payment and the
 * rest settle; the watcher's sweeps bring every paid deposit address's USDC to the seller wallet, and
 * for the chain, USDC still at deposit addresses + swept = received.
 */
@Order(5)
class DepositAddressIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void sameAmountInvoicesPaidInReverseOrderSettleByTheirOwnTransfersAndAreSweptToTheSeller() throws Exception {
        Map<String, String> env = SharedStack.env();
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_BASE_RPC_URL"));
        String usdc = env.get("CHAIN_BASE_USDC_ADDRESS");
        String seller = env.get("CHAIN_BASE_PAYMENT_ADDRESS");
        String payer = env.get("DEV_PAYER_ADDRESS");
        BigInteger amount = BigInteger.valueOf(1_110_000);

        List<JsonPath> invoices = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            invoices.add(create(base, key));
        }
        for (JsonPath inv : invoices) {
            assertThat(inv.getString("data.paymentDetails.paymentAddress")).isNotEqualToIgnoringCase(seller);
            assertThat(inv.getString("data.paymentDetails.payableAtomic")).isEqualTo(amount.toString());
        }
        // the seller wallet receives exactly that amount: no invoice may settle from it
        pay(rpc, payer, usdc, seller, amount);
        List<String> txs = new ArrayList<>(List.of("", "", "", ""));
        for (int i = invoices.size() - 1; i >= 0; i--) {
            txs.set(i, pay(rpc, payer, usdc, invoices.get(i).getString("data.paymentDetails.paymentAddress"), amount));
        }
        for (int i = 0; i < invoices.size(); i++) {
            JsonPath settled = await(base, key, invoices.get(i).getString("data.id"), "SETTLED");
            assertThat(settled.getString("data.paymentDetails.txHash")).isEqualToIgnoringCase(txs.get(i));
        }
        // a partial payment, then the rest
        JsonPath partial = create(base, key);
        String to = partial.getString("data.paymentDetails.paymentAddress");
        pay(rpc, payer, usdc, to, BigInteger.valueOf(500_000));
        until(WAIT, () -> "500000".equals(get(base, key, partial.getString("data.id"))
                .getString("data.paymentDetails.paidAtomic")));
        assertThat(get(base, key, partial.getString("data.id")).getString("data.status")).isEqualTo("PENDING");
        String rest = pay(rpc, payer, usdc, to, BigInteger.valueOf(610_000));
        assertThat(await(base, key, partial.getString("data.id"), "SETTLED").getString("data.paymentDetails.txHash")).isEqualToIgnoringCase(rest);

        // sweeps (every 30 s): every paid deposit address ends empty, its USDC in the seller wallet
        List<String> addresses = new ArrayList<>();
        invoices.forEach(i -> addresses.add(i.getString("data.paymentDetails.paymentAddress")));
        addresses.add(to);
        until(Duration.ofSeconds(150),
                () -> addresses.stream().allMatch(a -> UsdcInstaller.balanceOf(rpc, usdc, a).signum() == 0));
        for (String a : addresses) {
            assertThat(rpc.getCode(a).length()).as("forwarder at %s", a).isGreaterThan(2);
        }
        // the chain-wide invariant: USDC at deposit addresses + swept = received, once no sweep is in flight
        // (a mined sweep is in the ledger only after the watcher read its receipt)
        Map<String, Object> ledger = Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
            for (Map<String, Object> c : given().baseUri(env.get("SETTLEMENT_WATCHER_URL")).header("x-admin-key", env.get("ADMIN_API_KEY"))
                    .get("/admin/sweeps").then().statusCode(200).extract().jsonPath().<Map<String, Object>>getList("data.chains")) {
                if ("base".equals(c.get("chain")) && ((Number) c.get("openSweeps")).intValue() == 0) {
                    return c;
                }
            }
            return null;
        }, Objects::nonNull);
        assertThat(((Number) ledger.get("failedSweeps")).intValue()).isZero();
        BigInteger held = BigInteger.ZERO;
        for (String a : new StackDb(env).strings("watcher", "select address from deposit_address where chain = 'base'")) {
            held = held.add(UsdcInstaller.balanceOf(rpc, usdc, a));
        }
        BigInteger received = new BigInteger((String) ledger.get("receivedAtomic"));
        BigInteger swept = new BigInteger((String) ledger.get("sweptAtomic"));
        assertThat(held.add(swept)).as("held on chain + swept = received (%s)", ledger).isEqualTo(received);
    }

    private static JsonPath create(String base, String key) {
        return given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body("{\"amount\": 1.11, \"chain\": \"base\"}").post("/v1/invoices").then().statusCode(201).extract().jsonPath();
    }

    private static JsonPath get(String base, String key, String id) {
        return given().baseUri(base).header("x-api-key", key).get("/v1/invoices/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static void until(Duration timeout, java.util.concurrent.Callable<Boolean> condition) throws Exception {
        Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(condition);
    }

    private static JsonPath await(String base, String key, String id, String status) throws Exception {
        JsonPath[] last = new JsonPath[1];
        until(WAIT, () -> status.equals((last[0] = get(base, key, id)).getString("data.status")));
        return last[0];
    }

    /** A plain USDC transfer from the (unlocked) development payer; returns the tx hash once mined. */
    private static String pay(EvmRpc rpc, String payer, String usdc, String to, BigInteger amount) {
        return UsdcInstaller.transfer(rpc, usdc, payer, to, amount).get("transactionHash").asText();
    }
}
