package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

/**
 * One trace from an HTTP request to the Kafka record it causes, and from a Kafka record into the
 * consumer that handles it (service-commons {@code tracing}).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class TracingTest {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    Pool pool;

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private String outboxTraceparent(String aggregateId) {
        List<Row> rows = pool.preparedQuery("select trace_parent from outbox_event where aggregate_id = $1")
                .execute(Tuple.of(aggregateId)).await().atMost(Duration.ofSeconds(10)).stream().toList();
        assertThat(rows).hasSize(1);
        return rows.get(0).getString("trace_parent");
    }

    private static Response create(TestPartner p, String traceparent) {
        var spec = p.as().contentType(ContentType.JSON);
        if (traceparent != null) {
            spec = spec.header("traceparent", traceparent);
        }
        return spec.body(Api.createBody("agent-p-" + System.nanoTime(), "agent-c-" + System.nanoTime(), Api.inDays(30)))
                .post("/v1/mandates");
    }

    /**
     * A caller behind the edge (a request carrying {@code X-Forwarded-For}, as every request through the
     * gateway or Ingress does) cannot choose the trace id: its traceparent is a link, the request gets its
     * own trace, and that trace (not the caller's) reaches the outbox row.
     */
    @Test
    void anOutsideCallersTraceparentIsNotAdopted() {
        TestPartner p = Api.newPartner("traced-outside");
        String traceId = hex(16);
        Response r = p.as().contentType(ContentType.JSON).header("traceparent", "00-" + traceId + "-" + hex(8) + "-01")
                .header("X-Forwarded-For", "203.0.113.9")
                .body(Api.createBody("agent-p-" + System.nanoTime(), "agent-c-" + System.nanoTime(), Api.inDays(30)))
                .post("/v1/mandates");
        r.then().statusCode(201);
        String answer = r.header("traceresponse");
        assertThat(answer).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}").doesNotContain(traceId);
        String ours = answer.substring(3, 35);
        assertThat(outboxTraceparent(r.path("data.mandate_id"))).startsWith("00-" + ours + "-");
    }

    @Test
    void aRequestsTraceReachesItsOutboxRowAndItsKafkaRecord() {
        MandateEvents events = MandateEvents.get();
        TestPartner p = Api.newPartner("traced");
        String traceId = hex(16);
        String callerSpan = hex(8);

        Response r = create(p, "00-" + traceId + "-" + callerSpan + "-01");
        r.then().statusCode(201);
        // the answer names the trace and the server span, a child of the caller's
        String answer = r.header("traceresponse");
        assertThat(answer).matches("00-" + traceId + "-[0-9a-f]{16}-01").doesNotContain(callerSpan);
        String id = r.path("data.mandate_id");

        String row = outboxTraceparent(id);
        assertThat(row).startsWith("00-" + traceId + "-");

        MandateEvents.Received received = events.await(id, 1).get(0);
        // the relay's producer span: same trace, its own span id
        assertThat(received.headerTraceparent()).matches("00-" + traceId + "-[0-9a-f]{16}-01").isNotEqualTo(row);
        assertThat(received.headerEventId()).isEqualTo(received.event().eventId().toString());
    }

    @Test
    void withoutAValidTraceparentARequestStartsItsOwnTrace() {
        TestPartner p = Api.newPartner("untraced");
        for (String header : new String[] {null, "garbage", "00-" + "0".repeat(32) + "-" + hex(8) + "-01"}) {
            Response r = create(p, header);
            r.then().statusCode(201);
            String answer = r.header("traceresponse");
            assertThat(answer).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
            String traceId = answer.substring(3, 35);
            assertThat(traceId).isNotEqualTo("0".repeat(32));
            assertThat(outboxTraceparent(r.path("data.mandate_id"))).startsWith("00-" + traceId + "-");
        }
    }

    @Test
    void aConsumerContinuesTheRecordsTraceInItsLogLines() throws Exception {
        assertThat(ConfigProvider.getConfig().getValue("quarkus.log.console.format", String.class))
                .contains("traceId=%X{traceId}").contains("spanId=%X{spanId}");
        List<String[]> seen = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                // handlers run synchronously on the logging code's context, so the MDC is the consumer's
                Object trace = MDC.get("traceId");
                seen.add(new String[] {String.valueOf(record.getMessage()) + " " + List.of(
                        record.getParameters() == null ? new Object[0] : record.getParameters()), String.valueOf(trace)});
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        capture.setLevel(Level.ALL);
        Logger logger = Logger.getLogger("dev.agentpay.mandate.receipt.messaging");
        logger.addHandler(capture);
        try {
            String traceId = hex(16);
            UUID eventId = UUID.randomUUID();
            // a receipt naming a transition that does not exist: the consumer logs a warning inside its transaction
            AnchorReceiptEvent receipt = new AnchorReceiptEvent(new EventHeader(eventId, AnchorReceiptEvent.TYPE, "mnd_traced", "p1",
                    Instant.now(), 1), UUID.randomUUID().toString(), "0x00", "completed", 84532L, "0x" + "a".repeat(64), 1, 0);
            ProducerRecord<String, String> rec = TestKafka.record(Topics.ANCHOR_RECEIPTS, receipt.aggregateId(),
                    EventCodec.encode(receipt), null, null);
            rec.headers().add("traceparent", ("00-" + traceId + "-" + hex(8) + "-01").getBytes(StandardCharsets.UTF_8));
            TestKafka.send(rec);
            await("the consumer's warning about " + eventId).atMost(Duration.ofSeconds(20)).until(() -> seen.stream().anyMatch(s -> s[0].contains(eventId.toString())));
            String[] line = seen.stream().filter(s -> s[0].contains(eventId.toString())).findFirst().orElseThrow();
            assertThat(line[1]).isEqualTo(traceId);
        } finally {
            logger.removeHandler(capture);
        }
    }
}
