package dev.agentpay.invoice;

import static io.restassured.RestAssured.given;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.localstack.testing.TestKafka;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Helpers shared by the invoice tests: partners, invoices, and watcher events produced to the real broker. */
public final class TestSupport {

    private TestSupport() {
    }

    /** A partner registered by {@link #newPartner}: its id and API key. */
    public record Partner(String id, String key) {
    }

    /** Registers a new active partner and returns its API key. */
    public static String partner(PartnerRegistry registry) {
        return newPartner(registry).key();
    }

    /** Registers a new active partner. */
    public static Partner newPartner(PartnerRegistry registry) {
        String key = ApiKeys.generate();
        String id = "p_" + UUID.randomUUID().toString().substring(0, 8);
        registry.apply(new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, id, id, Instant.now(), 1), "name",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(key))));
        return new Partner(id, key);
    }

    public static JsonPath create(String key, String body) {
        return given().header("x-api-key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/invoices").then().statusCode(201).extract().jsonPath();
    }

    public static JsonPath get(String key, String id) {
        return given().header("x-api-key", key).get("/v1/invoices/" + id).then().statusCode(200).extract().jsonPath();
    }

    static void publish(ChainTransferEvent e) {
        TestKafka.send(TestKafka.record(e));
    }

    static ChainTransferEvent transfer(String type, String chain, String txHash, String to, String token,
            BigInteger amount, String memo) {
        String source = "solana".equals(chain) ? "solana-detector" : "evm-detector";
        return new ChainTransferEvent(EventHeader.of(type, ChainTransferEvent.transferId(chain, txHash, 0), null,
                Instant.now(), ChainTransferEvent.SCHEMA_VERSION), chain, txHash, 0, 1234, "0xblock",
                "0x1111111111111111111111111111111111111111", to, amount, token, memo, source);
    }

    static String txHash() {
        return "0x" + ApiKeys.randomHex(32);
    }
}
