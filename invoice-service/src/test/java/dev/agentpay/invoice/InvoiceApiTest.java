package dev.agentpay.invoice;

import static dev.agentpay.invoice.TestSupport.create;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Invoice API through HTTP: creation, validation, reading, listing, partner isolation. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class InvoiceApiTest {

    @Inject
    PartnerRegistry registry;

    /** The deposit factories of application.properties' test profile. */
    static final java.util.Map<String, String> FACTORIES = java.util.Map.of(
            "base", "0x00000000000000000000000000000000Fac70001",
            "polygon", "0x00000000000000000000000000000000Fac70002",
            "arbitrum", "0x00000000000000000000000000000000Fac70003",
            "skale", "0x00000000000000000000000000000000Fac70004");

    String key;

    @BeforeEach
    void partner() {
        key = TestSupport.partner(registry);
    }

    @ParameterizedTest
    @CsvSource({
            "base,8453,0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913,0x00000000000000000000000000000000000Ba5e1",
            "polygon,137,0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359,0x0000000000000000000000000000000000001370",
            "arbitrum,42161,0xaf88d065e77c8cC2239327C5EDb3A432268e5831,0x0000000000000000000000000000000000042161",
            "skale,1187947933,0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20,0x000000000000000000000000000000000005ca1e",
            "solana,mainnet-beta,EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v,9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"})
    void createsAPendingInvoiceWithTheChainsPaymentDetails(String chain, String networkId, String usdc, String seller) {
        JsonPath created = create(key, """
                {"amount": 12.5, "currency": "USDC", "customerEmail": "ada@example.com", "customerName": "Ada", "chain": "%s"}
                """.formatted(chain));
        assertThat(created.getBoolean("success")).isTrue();
        String id = created.getString("data.id");
        assertThat(UUID.fromString(id)).isNotNull();
        assertThat(created.getLong("data.invoiceNumber")).isPositive();
        assertThat(created.getString("data.status")).isEqualTo("PENDING");
        assertThat(created.getString("data.amount")).isEqualTo("12.5");
        assertThat(created.getString("data.currency")).isEqualTo("USDC");
        assertThat(created.getString("data.customerEmail")).isEqualTo("ada@example.com");
        assertThat(created.getString("data.paymentDetails.chain")).isEqualTo(chain);
        assertThat(created.getString("data.paymentDetails.networkId")).isEqualTo(networkId);
        assertThat(created.getString("data.paymentDetails.usdcAddress")).isEqualTo(usdc);
        if (chain.equals("solana")) {
            assertThat(created.getString("data.paymentDetails.paymentAddress")).isEqualTo(seller);
        } else {
            // the invoice's own address: the CREATE2 deposit address of its id under the chain's factory
            assertThat(created.getString("data.paymentDetails.paymentAddress"))
                    .isEqualTo(dev.agentpay.invoice.deposit.domain.DepositAddress.of(FACTORIES.get(chain), UUID.fromString(id)))
                    .isNotEqualToIgnoringCase(seller);
        }
        assertThat(created.getString("data.paymentDetails.payableAtomic")).isEqualTo("12500000");
        assertThat(created.getString("data.paymentDetails.payableAmount")).isEqualTo("12.5");
        assertThat(created.getString("data.paymentDetails.paidAtomic")).isEqualTo("0");
        assertThat(created.getString("data.paymentDetails.txHash")).isNull();
        assertThat(created.getString("data.createdAt")).endsWith("Z");
        if (chain.equals("solana")) {
            assertThat(created.getString("data.paymentDetails.memo")).isEqualTo(id);
            assertThat(created.getString("data.paymentDetails.payableAtomic")).isEqualTo("12500000");
        } else {
            assertThat(created.getString("data.paymentDetails.memo")).isNull();
        }
        JsonPath read = TestSupport.get(key, id);
        assertThat(read.getMap("data")).isEqualTo(created.getMap("data"));
    }

    @Test
    void sameAmountInvoicesPayExactlyTheirAmountEachToItsOwnAddress() throws Exception {
        // 16 at once of one amount on one chain: 16 addresses, each payable amount the amount itself
        var pool = java.util.concurrent.Executors.newFixedThreadPool(16);
        try {
            List<java.util.concurrent.Future<JsonPath>> calls = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                calls.add(pool.submit(() -> create(key, "{\"amount\": 4.75, \"chain\": \"arbitrum\"}")));
            }
            java.util.Set<String> addresses = new java.util.HashSet<>();
            for (var call : calls) {
                JsonPath p = call.get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(p.getString("data.paymentDetails.payableAtomic")).isEqualTo("4750000");
                addresses.add(p.getString("data.paymentDetails.paymentAddress").toLowerCase(java.util.Locale.ROOT));
            }
            assertThat(addresses).hasSize(16);
            // a fresh partner's 16 concurrent creations are numbered 1001..1016, each once
            List<Long> numbers = new ArrayList<>();
            for (var call : calls) {
                numbers.add(call.get().getLong("data.invoiceNumber"));
            }
            assertThat(numbers).containsExactlyInAnyOrderElementsOf(
                    java.util.stream.LongStream.rangeClosed(1001, 1016).boxed().toList());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void onlyAmountAndChainAreRequired() {
        JsonPath p = create(key, "{\"amount\": 1, \"chain\": \"BASE\"}");
        assertThat(p.getString("data.currency")).isEqualTo("USDC");
        assertThat(p.getString("data.paymentDetails.chain")).isEqualTo("base");
        assertThat(p.getString("data.customerEmail")).isNull();
        // no expiresAt asked for: the default lifetime (24 h), no expiredAt yet
        assertThat(java.time.Duration.between(java.time.Instant.parse(p.getString("data.createdAt")),
                java.time.Instant.parse(p.getString("data.expiresAt")))).isEqualTo(java.time.Duration.ofHours(24));
        assertThat(p.getString("data.expiredAt")).isNull();
    }

    @Test
    void anAskedForDeadlineIsKept() {
        String at = java.time.Instant.now().plus(java.time.Duration.ofDays(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        JsonPath p = create(key, "{\"amount\": 1, \"chain\": \"solana\", \"expiresAt\": \"" + at + "\"}");
        assertThat(p.getString("data.expiresAt")).isEqualTo(at);
        assertThat(TestSupport.get(key, p.getString("data.id")).getString("data.expiresAt")).isEqualTo(at);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": null, \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": 0, \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": -5, \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": 1.0000001, \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": \"10\", \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": 1e12, \"chain\": \"base\"}|validation_error|amount",
            "{\"amount\": 10, \"currency\": \"EUR\", \"chain\": \"base\"}|unsupported_currency|currency",
            "{\"amount\": 10, \"currency\": 5, \"chain\": \"base\"}|validation_error|currency",
            "{\"amount\": 10, \"customerEmail\": \"not-an-email\", \"chain\": \"base\"}|validation_error|customerEmail",
            "{\"amount\": 10, \"customerEmail\": \"a@b\", \"chain\": \"base\"}|validation_error|customerEmail",
            "{\"amount\": 10, \"customerName\": 42, \"chain\": \"base\"}|validation_error|customerName",
            "{\"amount\": 10, \"customerName\": \"x\\udb53\\ua49b\", \"chain\": \"base\"}|validation_error|customerName: must be well-formed",
            "{\"amount\": 10, \"description\": \"\\udc00\", \"chain\": \"base\"}|validation_error|description: must be well-formed",
            "{\"amount\": 10, \"description\": \"a\\u0000b\", \"chain\": \"base\"}|validation_error|description: must be well-formed",
            "{\"amount\": 10, \"chain\": \"ethereum\"}|unsupported_chain|chain",
            "{\"amount\": 10, \"chain\": 8453}|validation_error|chain",
            "{\"amount\": 10}|validation_error|chain",
            "{\"amount\": 10, \"chain\": \"base\", \"status\": \"SETTLED\"}|validation_error|status",
            "{\"amount\": 10, \"chain\": \"base\", \"expiresAt\": \"2020-01-01T00:00:00Z\"}|validation_error|expiresAt: must be at least",
            "{\"amount\": 10, \"chain\": \"base\", \"expiresAt\": \"2999-01-01T00:00:00Z\"}|validation_error|expiresAt: must be at most 30 days",
            "{\"amount\": 10, \"chain\": \"base\", \"expiresAt\": \"tomorrow\"}|validation_error|expiresAt: must be an ISO 8601",
            "{\"amount\": 10, \"chain\": \"base\", \"expiresAt\": 1700000000}|validation_error|expiresAt: must be an ISO 8601",
            "[1, 2]|invalid_body|object",
            "{\"amount\": 10, |invalid_json|JSON"})
    void badInputIsA400NamingTheField(String body, String code, String mentioned) {
        int before = countInvoices();
        given().header("x-api-key", key).contentType(ContentType.JSON).body(body).post("/v1/invoices")
                .then().statusCode(400)
                .body("success", equalTo(false))
                .body("error.code", equalTo(code))
                .body("error.message", org.hamcrest.Matchers.containsString(mentioned));
        assertThat(countInvoices()).isEqualTo(before);
    }

    @Test
    void clientsCannotSetStatusAndMissingKeyIs401() {
        given().contentType(ContentType.JSON).body("{\"amount\": 1, \"chain\": \"base\"}").post("/v1/invoices")
                .then().statusCode(401).body("error.code", equalTo("unauthorized"));
        given().header("x-api-key", "sk_" + "0".repeat(64)).get("/v1/invoices")
                .then().statusCode(401).body("success", equalTo(false));
    }

    @Test
    void otherPartnersInvoicesAreNotFound() {
        String id = create(key, "{\"amount\": 2, \"chain\": \"base\"}").getString("data.id");
        String other = TestSupport.partner(registry);
        given().header("x-api-key", other).get("/v1/invoices/" + id)
                .then().statusCode(404).body("error.code", equalTo("invoice_not_found"));
        given().header("x-api-key", key).get("/v1/invoices/" + UUID.randomUUID())
                .then().statusCode(404).body("error.code", equalTo("invoice_not_found"));
        given().header("x-api-key", key).get("/v1/invoices/not-a-uuid")
                .then().statusCode(404).body("error.code", equalTo("invoice_not_found"));
        given().header("x-api-key", other).get("/v1/invoices").then().statusCode(200)
                .body("data.items.size()", equalTo(0));
    }

    @Test
    void listsThePartnersInvoicesNewestFirstInPages() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(0, create(key, "{\"amount\": " + (i + 1) + ", \"chain\": \"skale\"}").getString("data.id"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var req = given().header("x-api-key", key).queryParam("limit", 2);
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            JsonPath page = req.get("/v1/invoices").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("data.items.id"));
            cursor = page.getString("data.nextCursor");
            pages++;
        } while (cursor != null);
        assertThat(seen).containsExactlyElementsOf(ids);
        assertThat(pages).isEqualTo(3);

        given().header("x-api-key", key).queryParam("status", "SETTLED").get("/v1/invoices")
                .then().statusCode(200).body("data.items.size()", equalTo(0)).body("data.nextCursor", nullValue());
        given().header("x-api-key", key).queryParam("limit", 0).get("/v1/invoices")
                .then().statusCode(400).body("error.message", org.hamcrest.Matchers.containsString("limit"));
        given().header("x-api-key", key).queryParam("limit", "abc").get("/v1/invoices").then().statusCode(400);
        given().header("x-api-key", key).queryParam("cursor", "!!bogus").get("/v1/invoices")
                .then().statusCode(400).body("error.message", org.hamcrest.Matchers.containsString("cursor"));
        given().header("x-api-key", key).queryParam("status", "PAID").get("/v1/invoices").then().statusCode(400);
        given().header("x-api-key", key).get("/v1/invoices").then().statusCode(200)
                .body("data.items[0].id", notNullValue());
    }

    @Test
    void invoiceNumbersAndCursorsAreThePartnersOwnAndTellNothingOfOthersVolume() {
        String other = TestSupport.partner(registry);
        long first = create(key, "{\"amount\": 1, \"chain\": \"skale\"}").getLong("data.invoiceNumber");
        assertThat(first).isEqualTo(1001L);
        String cursorBefore = given().header("x-api-key", key).queryParam("limit", 1).get("/v1/invoices")
                .then().statusCode(200).extract().jsonPath().getString("data.nextCursor");
        // the other partner creates 7 invoices in between: its numbers are its own, from 1001 as well
        List<Long> others = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            others.add(create(other, "{\"amount\": 2, \"chain\": \"skale\"}").getLong("data.invoiceNumber"));
        }
        assertThat(others).containsExactly(1001L, 1002L, 1003L, 1004L, 1005L, 1006L, 1007L);
        long second = create(key, "{\"amount\": 1, \"chain\": \"skale\"}").getLong("data.invoiceNumber");
        assertThat(second).isEqualTo(first + 1); // no gap left by the other partner's seven
        // a cursor names only the partner's own position: the page after "the newest" is the same cursor
        // as before the other partner's burst, moved by this partner's one new invoice alone
        JsonPath page = given().header("x-api-key", key).queryParam("limit", 1).get("/v1/invoices")
                .then().statusCode(200).extract().jsonPath();
        assertThat(page.getLong("data.items[0].invoiceNumber")).isEqualTo(second);
        assertThat(new String(java.util.Base64.getUrlDecoder().decode(page.getString("data.nextCursor")),
                java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("n:" + second);
        assertThat(cursorBefore).isNull(); // one invoice, one page: no cursor at all then
        // a cursor minted before still pages correctly (the cursor format is unchanged)
        String oldStyle = java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("n:" + second).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        given().header("x-api-key", key).queryParam("cursor", oldStyle).get("/v1/invoices").then().statusCode(200)
                .body("data.items.size()", equalTo(1)).body("data.items[0].invoiceNumber", equalTo((int) first));
    }

    private int countInvoices() {
        return given().header("x-api-key", key).queryParam("limit", 100).get("/v1/invoices")
                .then().statusCode(200).extract().jsonPath().getList("data.items").size();
    }

    /**
     * The typed request records through HTTP: what Jackson refuses while binding (wrong type, unknown field,
     * repeated key, not an object, absent body, too deep) and what Bean Validation refuses (lengths, amount forms,
     * the deadline window, JSON names of fields), each a 400 naming the field with the code this service has
     * always answered; amounts are the exact decimal sent.
     */
    @Nested
    class TypedBinding {


        private Response post(String body) {
            return given().header("x-api-key", key).contentType(ContentType.JSON).body(body).post("/v1/invoices");
        }

        private void refused(Response r, String code, String message) {
            r.then().statusCode(400).body("success", equalTo(false)).body("error.code", equalTo(code))
                    .body("error.message", startsWith(message));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                // wrong JSON types are never coerced
                "{\"amount\": \"10\", \"chain\": \"base\"}|validation_error|amount: must be a number",
                "{\"amount\": true, \"chain\": \"base\"}|validation_error|amount: must be a number",
                "{\"amount\": [1], \"chain\": \"base\"}|validation_error|amount: must be a number",
                "{\"amount\": 1, \"chain\": 8453}|validation_error|chain: must be a string",
                "{\"amount\": 1, \"chain\": \"base\", \"customerName\": 42}|validation_error|customerName: must be a string",
                "{\"amount\": 1, \"chain\": \"base\", \"description\": false}|validation_error|description: must be a string",
                "{\"amount\": 1, \"chain\": \"base\", \"customerName\": {\"a\": 1}}|validation_error|customerName: must be a string",
                // unknown fields are refused, named
                "{\"amount\": 1, \"chain\": \"base\", \"status\": \"SETTLED\"}|validation_error|status: unknown field",
                "{\"amount\": 1, \"chain\": \"base\", \"metadata\": {\"a\": {\"b\": 1}}}|validation_error|metadata: unknown field",
                // amount forms
                "{\"amount\": -1, \"chain\": \"base\"}|validation_error|amount: must be greater than 0",
                "{\"amount\": 0.0, \"chain\": \"base\"}|validation_error|amount: must be greater than 0",
                "{\"amount\": 1.0000001, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
                "{\"amount\": 15e-7, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
                "{\"amount\": 1e-999999999, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
                "{\"amount\": 1e10, \"chain\": \"base\"}|validation_error|amount: must not exceed 1000000000",
                "{\"amount\": 1e999999999, \"chain\": \"base\"}|validation_error|amount: must not exceed 1000000000",
                "{\"amount\": 123456789012345678901234567890.5, \"chain\": \"base\"}|validation_error|amount: must not exceed",
                "{\"amount\": null, \"chain\": \"base\"}|validation_error|amount: is required",
                // codes of their own
                "{\"amount\": 1, \"chain\": \"ethereum\"}|unsupported_chain|chain: must be one of base",
                "{\"amount\": 1, \"chain\": \"base\", \"currency\": \"EUR\"}|unsupported_currency|currency: only USDC is supported",
                // the first violation by field name answers: amount before chain before currency
                "{\"amount\": 0, \"chain\": \"ethereum\", \"currency\": \"EUR\"}|validation_error|amount: must be greater than 0",
                "{\"currency\": \"EUR\"}|validation_error|amount: is required",
                // lengths and formats
                "{\"amount\": 1, \"chain\": \"base\", \"customerEmail\": \"a@b\"}|validation_error|customerEmail: must be a valid email address",
                // JSON shape and syntax
                "[1, 2]|invalid_body|request body must be a JSON object",
                "\"x\"|invalid_body|request body must be a JSON object",
                "{\"amount\": 1,|invalid_json|request body is not valid JSON",
                "{\"amount\": 1, \"chain\": \"base\"} {}|invalid_json|request body is not valid JSON"})
        void refusesNamingTheField(String body, String code, String message) {
            refused(post(body), code, message);
        }

        @Test
        void tooLongTextIsNamedWithItsLimit() {
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": \"" + "x".repeat(201) + "\"}"), "validation_error",
                    "customerName: must be at most 200 characters");
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"description\": \"" + "x".repeat(1001) + "\"}"), "validation_error",
                    "description: must be at most 1000 characters");
            // the limit applies to the trimmed text: surrounding blanks do not count
            post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": \"  " + "x".repeat(200) + "  \"}").then().statusCode(201)
                    .body("data.customerName", equalTo("x".repeat(200)));
        }

        @Test
        void anAbsentBodyIsRequired() {
            refused(given().header("x-api-key", key).contentType(ContentType.JSON).post("/v1/invoices"), "invalid_json",
                    "request body is required");
            refused(post("null"), "invalid_json", "request body is required");
        }

        @Test
        void aRepeatedKeyIsNamed() {
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"amount\": 1000}"), "invalid_json",
                    "request body repeats the key \"amount\"");
        }

        @Test
        void tooDeepNestingIsRefusedBeforeItIsRead() {
            // a nested value where text is expected fails at its first bracket; deeper than the parser's limit anywhere else
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": " + "[".repeat(40) + "]".repeat(40) + "}"),
                    "validation_error", "customerName: must be a string");
            // an unknown field is read whole before it is refused: nested past the parser's limit, the body is refused
            for (String body : new String[] {"{\"amount\": 1, \"chain\": \"base\", \"metadata\": " + "{\"a\":".repeat(40) + "1"
                    + "}".repeat(40) + "}", "[".repeat(40) + "]".repeat(40)}) {
                Response r = post(body);
                assertThat(r.statusCode()).as(r.asString()).isEqualTo(400);
                assertThat(r.<Boolean>path("success")).isFalse();
                assertThat(r.<String>path("error.code")).isIn("invalid_json", "invalid_body");
            }
        }

        @Test
        void theDeadlineWindowIsChecked() {
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"" + Instant.now().minusSeconds(5) + "\"}"),
                    "validation_error", "expiresAt: must be at least");
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"" + Instant.now().plus(Duration.ofDays(31)) + "\"}"),
                    "validation_error", "expiresAt: must be at most 30 days in the future");
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"2030-01-01T00:00:00\"}"), "validation_error",
                    "expiresAt: must be an ISO 8601 timestamp with offset");
            refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": 1700000000}"), "validation_error", "expiresAt: must be an ISO 8601 timestamp string");
        }

        @Test
        void amountsAreTheExactDecimalSent() {
            // 999999999.999999 has no exact double: read through one it would not be 999999999999999 atomic units
            JsonPath p = TestSupport.create(key, "{\"amount\": 999999999.999999, \"chain\": \"base\"}");
            assertThat(p.getString("data.paymentDetails.payableAtomic")).isEqualTo("999999999999999");
            JsonPath e = TestSupport.create(key, "{\"amount\": 1.5e2, \"chain\": \"solana\", \"currency\": \" usdc \"}");
            assertThat(e.getString("data.paymentDetails.payableAtomic")).isEqualTo("150000000");
            assertThat(e.getString("data.currency")).isEqualTo("USDC");
        }

        @Test
        void listParametersAreTyped() {
            given().header("x-api-key", key).queryParam("limit", "abc").get("/v1/invoices").then().statusCode(400)
                    .body("error.code", equalTo("validation_error")).body("error.message", equalTo("limit: must be a whole number"));
            given().header("x-api-key", key).queryParam("limit", "0").get("/v1/invoices").then().statusCode(400)
                    .body("error.message", equalTo("limit: must be an integer from 1 to 100"));
            given().header("x-api-key", key).queryParam("limit", "99999999999").get("/v1/invoices").then().statusCode(400)
                    .body("error.message", startsWith("limit: "));
            given().header("x-api-key", key).queryParam("status", "PAID").get("/v1/invoices").then().statusCode(400)
                    .body("error.code", equalTo("validation_error")).body("error.message", equalTo("status: must be PENDING, SETTLED or EXPIRED"));
            given().header("x-api-key", key).queryParam("status", "pending").queryParam("limit", " 5 ").get("/v1/invoices")
                    .then().statusCode(200);
            given().header("x-admin-key", "test-admin-key-0123456789").queryParam("limit", "abc").get("/admin/transfers/unmatched")
                    .then().statusCode(400).body("error.message", equalTo("limit: must be a whole number"));
            given().header("x-admin-key", "test-admin-key-0123456789").queryParam("limit", "1001").get("/admin/transfers/unmatched")
                    .then().statusCode(400).body("error.message", equalTo("limit: must be an integer from 1 to 1000"));
        }

        @Test
        void x402BodiesAreCheckedBeforeAnyPaymentNamingTheJsonField() {
            // the settle body's field is invoice_id on the wire (invoiceId in Java)
            given().contentType(ContentType.JSON).body("{\"invoice_id\": \"123\"}").post("/api/x402/settle").then().statusCode(400)
                    .body("error.code", equalTo("validation_error")).body("error.message", equalTo("invoice_id: must be a UUID"));
            given().contentType(ContentType.JSON).body("{}").post("/api/x402/settle").then().statusCode(400)
                    .body("error.message", equalTo("invoice_id: is required"));
            given().contentType(ContentType.JSON).post("/api/x402/settle").then().statusCode(400)
                    .body("error.message", equalTo("invoice_id: is required"));
            given().contentType(ContentType.JSON).body("{\"invoice_id\": 5}").post("/api/x402/settle").then().statusCode(400)
                    .body("error.message", equalTo("invoice_id: must be a string"));
            given().contentType(ContentType.JSON).body("{\"nope\": 1}").post("/api/x402/invoice").then().statusCode(400)
                    .body("error.code", equalTo("validation_error")).body("error.message", equalTo("nope: unknown field"));
            given().contentType(ContentType.JSON).body("{\"amount\": \"0.01\"}").post("/api/x402/invoice").then().statusCode(400)
                    .body("error.message", equalTo("amount: must be a number"));
            given().contentType(ContentType.JSON).body("{\"currency\": \"EUR\"}").post("/api/x402/invoice").then().statusCode(400)
                    .body("error.code", equalTo("unsupported_currency"));
            given().contentType(ContentType.JSON).body("{\"email\": \"" + "a".repeat(64) + "@" + ("b".repeat(60) + ".").repeat(4) + "co\"}").post("/api/x402/invoice")
                    .then().statusCode(400).body("error.message", equalTo("email: must be at most 254 characters"));
        }

        @Test
        void anX402InvoiceWithoutABodyAsksForTheDefaultsAndOtherMediaTypesAreRefusedBeforeAnyPayment() {
            // an x402 client may POST nothing at all: the challenge for an invoice of the default amount
            // (java.net.http: RestAssured would add a content type of its own)
            java.net.http.HttpResponse<String> bare;
            try {
                bare = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                                java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port + "/api/x402/invoice"))
                        .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (java.io.IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
            assertThat(bare.request().headers().firstValue("content-type")).isEmpty();
            assertThat(bare.statusCode()).as(bare.body()).isEqualTo(402);
            assertThat(bare.body()).contains("\"errorCode\":\"payment_required\"");
            given().contentType(ContentType.JSON).post("/api/x402/invoice").then().statusCode(402);
            given().contentType(ContentType.TEXT).body("{}").post("/api/x402/invoice").then().statusCode(415)
                    .body("error.code", equalTo("unsupported_media_type"));
        }
    }
}
