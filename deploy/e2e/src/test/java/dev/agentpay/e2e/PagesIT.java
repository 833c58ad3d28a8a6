package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.RepoPaths;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 32 in a real browser: the hosted payment page {@code /checkout/{id}} and the partner console {@code /console}
 * through the gateway of the shared stack, driven by Playwright ({@code src/test/js/pages-browser.mjs}) in Debian's
 * Chromium ({@code /usr/bin/chromium}; {@code .ci/run} installs it when missing). The journeys and their checks are in
 * the script; this class creates what they need through the public API and reads the script's verdict. Screenshots:
 * {@code deploy/e2e/target/pages/}.
 */
@Order(6)
class PagesIT {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Path SCRIPT = RepoPaths.root().resolve("deploy/e2e/src/test/js/pages-browser.mjs");
    static final Path OUT = RepoPaths.root().resolve("deploy/e2e/target/pages");
    static final String MARKUP = "<img src=x onerror=alert(1)>";

    @Test
    void checkoutPageTurnsPaidWithoutAReloadAndExpiredOnesSayExpired() throws Exception {
        Map<String, String> env = SharedStack.env();
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        // created first: the stack refuses deadlines under a minute, and the page watches it the whole journey
        Instant deadline = Instant.now().plusSeconds(62);
        JsonPath expiring = createInvoice(base, key, "{\"amount\": 0.5, \"chain\": \"base\", \"expiresAt\": \"" + deadline + "\"}");
        String description = MARKUP + " Order 7 & \"more\"";
        JsonPath paid = createInvoice(base, key, JSON.writeValueAsString(Map.of("amount", 1.23, "chain", "base", "description", description)));
        JsonPath walletInvoice = createInvoice(base, key, "{\"amount\": 2.5, \"chain\": \"base\"}");

        ObjectNode cmd = JSON.createObjectNode();
        cmd.put("baseUrl", base);
        cmd.put("outDir", OUT.toString());
        ObjectNode c = cmd.putObject("checkout");
        c.put("paidId", paid.getString("data.id"));
        c.put("expiringId", expiring.getString("data.id"));
        c.put("walletId", walletInvoice.getString("data.id"));
        c.put("walletAddress", walletInvoice.getString("data.paymentDetails.paymentAddress"));
        c.put("amount", paid.getString("data.amount"));
        c.put("atomic", paid.getString("data.paymentDetails.payableAtomic"));
        c.put("address", paid.getString("data.paymentDetails.paymentAddress"));
        c.put("paymentUri", paid.getString("data.paymentDetails.paymentUri"));
        c.put("description", description);
        // the expiry sweep runs every 5 s: Expired within 30 s of the deadline
        c.put("expireWithinMs", Math.max(5_000, deadline.toEpochMilli() + 30_000 - System.currentTimeMillis()));
        ObjectNode pay = c.putObject("payment");
        pay.put("rpc", env.get("CHAIN_BASE_RPC_URL"));
        pay.put("chainId", env.get("CHAIN_BASE_CHAIN_ID"));
        pay.put("usdc", env.get("CHAIN_BASE_USDC_ADDRESS"));
        pay.put("privateKey", env.get("DEV_PAYER_PRIVATE_KEY"));

        JsonNode r = runBrowser(cmd);
        assertThat(r.path("ok").asBoolean()).as(r.path("error").asText()).isTrue();
        assertThat(r.path("timings").path("paidAfterBlockMs").asLong()).isLessThanOrEqualTo(3_000);
        assertThat(OUT.resolve("checkout-paid.png")).exists();
        assertThat(OUT.resolve("checkout-expired.png")).exists();
        // the page said what the API says
        assertThat(given().baseUri(base).header("x-api-key", key).get("/v1/invoices/" + paid.getString("data.id"))
                .then().statusCode(200).extract().path("data.paymentDetails.txHash").toString())
                .isEqualToIgnoringCase(r.path("txHash").asText());
    }

    static JsonPath createInvoice(String base, String key, String body) {
        return given().baseUri(base).header("x-api-key", key).contentType("application/json").body(body)
                .post("/v1/invoices").then().statusCode(201).extract().jsonPath();
    }

    /** Runs the browser script with the command on stdin; its stderr goes to the test's output. */
    static JsonNode runBrowser(ObjectNode cmd) throws Exception {
        Files.createDirectories(OUT);
        Process p = new ProcessBuilder("node", SCRIPT.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().write(JSON.writeValueAsBytes(cmd));
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("browser script timed out");
        }
        String text = new String(out, StandardCharsets.UTF_8).trim();
        Files.writeString(OUT.resolve("result.json"), text);
        return JSON.readTree(text.substring(text.lastIndexOf('\n') + 1));
    }
}
