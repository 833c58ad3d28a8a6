package dev.agentpay.invoice;

import static io.restassured.RestAssured.given;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.SharedServers;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Helpers shared by the invoice tests: partners, invoices, and watcher events produced to the real broker. */
public final class TestSupport {

    private static KafkaProducer<String, String> producer;

    private TestSupport() {
    }

    /** Registers a new active partner and returns its API key. */
    public static String partner(PartnerRegistry registry) {
        String key = ApiKeys.generate();
        String id = "p_" + UUID.randomUUID().toString().substring(0, 8);
        registry.apply(new PartnerEvent(UUID.randomUUID(), PartnerEvent.TYPE, id, id, Instant.now(), 1, "name",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(key))));
        return key;
    }

    public static JsonPath create(String key, String body) {
        return given().header("x-api-key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/invoices").then().statusCode(201).extract().jsonPath();
    }

    public static JsonPath get(String key, String id) {
        return given().header("x-api-key", key).get("/v1/invoices/" + id).then().statusCode(200).extract().jsonPath();
    }

    static synchronized void publish(ChainTransferEvent e) {
        if (producer == null) {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        }
        ProducerRecord<String, String> r = new ProducerRecord<>(Topics.CHAIN_TRANSFERS, e.aggregateId(), EventCodec.encode(e));
        r.headers().add("event-id", e.eventId().toString().getBytes(StandardCharsets.UTF_8));
        r.headers().add("event-type", e.type().getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(r).get();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    static ChainTransferEvent transfer(String type, String chain, String txHash, String to, String token,
            BigInteger amount, String memo) {
        String source = "solana".equals(chain) ? "solana-detector" : "evm-detector";
        return new ChainTransferEvent(UUID.randomUUID(), type, ChainTransferEvent.transferId(chain, txHash, 0), null,
                Instant.now(), ChainTransferEvent.SCHEMA_VERSION, chain, txHash, 0, 1234, "0xblock",
                "0x1111111111111111111111111111111111111111", to, amount, token, memo, source);
    }

    static String txHash() {
        return "0x" + ApiKeys.randomHex(32);
    }

    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("timed out waiting for " + what);
    }
}
