package dev.agentpay.webhook;

import static dev.agentpay.webhook.support.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.NodeVerifier.Item;
import dev.agentpay.webhook.support.NodeVerifier.Verdict;
import dev.agentpay.webhook.support.NodeVerifier;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestReceiver.Answer;
import dev.agentpay.webhook.support.TestReceiver.Received;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * End to end: events produced to the real Kafka broker, deliveries POSTed to a real HTTP receiver on
 * loopback, signatures checked by node:crypto and the npm {@code standardwebhooks} library. The test
 * profile retries after 1 s, 1 s, 1 s and disables a subscription failing for 2.5 s.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DeliveryTest {

    static final String RAW_SECRET = "raw-Secret-for-delivery-tests-42";
    static final String WHSEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    static final List<String> ALL_TYPES = List.of("mandate.proposed", "mandate.signed_by_proposer",
            "mandate.signed_by_both", "mandate.in_progress", "mandate.completed", "mandate.disputed", "mandate.expired",
            "mandate.anchored", "invoice.settled", "disco.benchmark.published");
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    PartnerRegistry registry;

    final TestReceiver receiver = TestReceiver.shared();

    private static String path() {
        return "/d/" + UUID.randomUUID();
    }

    @Test
    void everyEventTypeArrivesSignedAndStandardWebhooksVerifies() throws Exception {
        TestPartner p = TestPartners.register(registry);
        String rawPath = path();
        String whsecPath = path();
        // the answer carries the whsec_ form a Standard Webhooks library takes with its defaults
        String rawStandard = Api.subscribeAnswer(p, receiver.url(rawPath), ALL_TYPES, RAW_SECRET)
                .getString("data.standardWebhooksSecret");
        String whsecStandard = Api.subscribeAnswer(p, receiver.url(whsecPath), ALL_TYPES, WHSEC_SECRET)
                .getString("data.standardWebhooksSecret");
        assertThat(rawStandard).isEqualTo("whsec_" + java.util.Base64.getEncoder()
                .encodeToString(RAW_SECRET.getBytes(StandardCharsets.UTF_8)));
        assertThat(whsecStandard).isEqualTo(WHSEC_SECRET);
        String mandateId = "mnd_" + UUID.randomUUID();
        List<DomainEvent> sent = new ArrayList<>();
        for (String type : ALL_TYPES.subList(0, 8)) {
            sent.add(TestEvents.mandate(type, mandateId, p.id()));
        }
        sent.add(TestEvents.invoiceSettled("inv_" + UUID.randomUUID(), p.id()));
        sent.add(TestEvents.benchmarkPublished("bench-" + UUID.randomUUID()));
        sent.forEach(TestEvents::send);

        await("10 deliveries on each endpoint").atMost(WAIT).until(() -> receiver.at(rawPath).size() >= 10 && receiver.at(whsecPath).size() >= 10);
        List<Item> items = new ArrayList<>();
        for (String path : List.of(rawPath, whsecPath)) {
            List<Received> got = receiver.at(path);
            assertThat(got).hasSize(10);
            for (DomainEvent e : sent) {
                Received r = got.stream().filter(x -> e.eventId().toString().equals(x.header("webhook-id"))).findFirst()
                        .orElseThrow(() -> new AssertionError("missing " + e.type() + " on " + path));
                JsonNode env = EventCodec.mapper().readTree(r.body());
                assertThat(env.get("id").asText()).isEqualTo(e.eventId().toString());
                assertThat(env.get("type").asText()).isEqualTo(e.type());
                assertThat(env.get("createdAt").asText()).isEqualTo(e.occurredAt().toString());
                assertThat(r.header("x-service-event")).isEqualTo(e.type());
                assertThat(r.header("content-type")).startsWith("application/json");
                assertThat(Math.abs(Long.parseLong(r.header("webhook-timestamp")) - System.currentTimeMillis() / 1000))
                        .isLessThan(60);
                if (e instanceof MandateEvent m) {
                    assertThat(env.get("data")).isEqualTo(m.mandate());
                }
                String secret = path.equals(rawPath) ? RAW_SECRET : WHSEC_SECRET;
                assertThat(r.header("x-service-signature")).isEqualTo(hmacHex(secret, r.body()));
                items.add(new Item(secret, path.equals(rawPath) ? rawStandard : whsecStandard, r));
            }
            // One resource's events arrive in the order they happened.
            List<String> mandateTypes = got.stream().map(x -> x.header("x-service-event"))
                    .filter(t -> t.startsWith("mandate.")).toList();
            assertThat(mandateTypes).containsExactlyElementsOf(ALL_TYPES.subList(0, 8));
        }
        List<Verdict> verdicts = NodeVerifier.verify(items);
        assertThat(verdicts).hasSize(20).allSatisfy(v -> {
            assertThat(v.standard()).as("standardwebhooks verify: %s", v.error()).isTrue();
            assertThat(v.service()).as("X-Service-Signature").isTrue();
        });
        // The check can fail: the wrong secret is refused by both.
        List<Verdict> wrong = NodeVerifier.verify(List.of(new Item(RAW_SECRET + "x", receiver.at(rawPath).get(0)),
                // the registered raw secret handed to the library's defaults is not the key (it is read as base64)
                new Item(RAW_SECRET, "whsec_" + RAW_SECRET, receiver.at(rawPath).get(0))));
        assertThat(wrong.get(0).standard()).isFalse();
        assertThat(wrong.get(0).service()).isFalse();
        assertThat(wrong.get(1).standard()).isFalse();
    }

    @Test
    void receiverFailingTwiceGetsItOnceAcceptedAndNeverAgain() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        receiver.script(path, Answer.of(500), Answer.of(502));
        String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.proposed"), RAW_SECRET);
        MandateEvent e = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id());
        TestEvents.send(e);

        await("three attempts").atMost(WAIT).until(() -> receiver.at(path).size() >= 3);
        // no fourth attempt over longer than the whole test retry schedule
        await("no attempt after the success").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> receiver.at(path).size() == 3);
        List<Received> got = receiver.at(path);
        assertThat(got).extracting(Received::answered).containsExactly(500, 502, 200);
        assertThat(got).extracting(r -> r.header("webhook-id")).containsOnly(e.eventId().toString());
        assertThat(got).extracting(r -> r.header("x-service-attempt")).containsExactly("1", "2", "3");

        JsonPath log = Api.deliveries(p, sub);
        assertThat(log.getList("data")).hasSize(1);
        assertThat(log.getString("data[0].status")).isEqualTo("succeeded");
        assertThat(log.getInt("data[0].attemptCount")).isEqualTo(3);
        assertThat(log.getString("data[0].eventId")).isEqualTo(e.eventId().toString());
        JsonPath detail = Api.delivery(p, sub, log.getString("data[0].id"));
        assertThat(detail.getList("data.attempts.responseCode", Integer.class)).containsExactly(500, 502, 200);
        assertThat(detail.getList("data.attempts.outcome", String.class)).containsExactly("failed", "failed", "succeeded");
        assertThat(detail.getList("data.attempts.latencyMs", Integer.class)).allSatisfy(ms -> assertThat(ms).isBetween(0, 3000));
        assertThat(detail.getList("data.attempts.trigger", String.class)).containsOnly("scheduled");
    }

    @Test
    void partnerTwoNeverReceivesPartnerOnesEvents() {
        TestPartner p1 = TestPartners.register(registry);
        TestPartner p2 = TestPartners.register(registry);
        String path1 = path();
        String path2 = path();
        Api.subscribe(p1, receiver.url(path1), ALL_TYPES.subList(0, 9), RAW_SECRET);
        Api.subscribe(p2, receiver.url(path2), ALL_TYPES.subList(0, 9), RAW_SECRET);
        MandateEvent m1 = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p1.id());
        TestEvents.send(m1);
        TestEvents.send(TestEvents.invoiceSettled("inv_" + UUID.randomUUID(), p1.id()));
        MandateEvent m2 = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p2.id());
        TestEvents.send(m2);
        // An event without an owner is not a broadcast: it reaches nobody.
        TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), null));

        await("partner 1's two events").atMost(WAIT).until(() -> receiver.at(path1).size() >= 2);
        await("partner 2's event").atMost(WAIT).until(() -> receiver.at(path2).size() >= 1);
        await("no delivery to the wrong partner").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10))
                .until(() -> receiver.at(path2).size() == 1 && receiver.at(path1).size() == 2);
        assertThat(receiver.at(path2)).extracting(r -> r.header("webhook-id")).containsExactly(m2.eventId().toString());
        assertThat(receiver.at(path1)).hasSize(2).extracting(r -> r.header("webhook-id")).doesNotContain(m2.eventId().toString());
    }

    @Test
    void goneDisablesTheSubscriptionWithANotice() {
        TestPartner p = TestPartners.register(registry);
        String gone = path();
        String notices = path();
        receiver.script(gone, Answer.of(410));
        String goneSub = Api.subscribe(p, receiver.url(gone), List.of("mandate.proposed"), RAW_SECRET);
        Api.subscribe(p, receiver.url(notices), List.of("webhook.disabled"), RAW_SECRET);
        TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));

        await("the disabled notice").atMost(WAIT).until(() -> receiver.at(notices).size() >= 1);
        as(p).get("/v1/webhooks/" + goneSub).then().statusCode(200)
                .body("data.status", equalTo("disabled")).body("data.disabledReason", equalTo("endpoint_gone"));
        JsonPath notice = new JsonPath(receiver.at(notices).get(0).bodyText());
        assertThat(notice.getString("type")).isEqualTo("webhook.disabled");
        assertThat(notice.getString("data.subscriptionId")).isEqualTo(goneSub);
        assertThat(notice.getString("data.reason")).isEqualTo("endpoint_gone");
        assertThat(Api.deliveries(p, goneSub).getString("data[0].status")).isEqualTo("failed");

        TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));
        await("nothing sent to a disabled subscription").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .until(() -> receiver.at(gone).size() == 1);
        as(p).post("/v1/webhooks/" + goneSub + "/deliveries/" + Api.deliveries(p, goneSub).getString("data[0].id")
                + "/redeliver").then().statusCode(409).body("error.code", equalTo("webhook_disabled"));
    }

    @Test
    void failingForTooLongIsAbandonedAndDisabled() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        String notices = path();
        receiver.script(path, Answer.of(500), Answer.of(500), Answer.of(500), Answer.of(500), Answer.of(500), Answer.of(500));
        String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.proposed"), RAW_SECRET);
        Api.subscribe(p, receiver.url(notices), List.of("webhook.disabled"), RAW_SECRET);
        TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));

        await("the disabled notice").atMost(WAIT).until(() -> receiver.at(notices).size() >= 1);
        // the test schedule has four attempts: no fifth
        await("no attempt past the schedule").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10))
                .until(() -> receiver.at(path).size() == 4);
        JsonPath log = Api.deliveries(p, sub);
        assertThat(log.getString("data[0].status")).isEqualTo("failed");
        assertThat(log.getInt("data[0].attemptCount")).isEqualTo(4);
        assertThat(Api.subscription(p, sub).getString("data.disabledReason")).isEqualTo("failing");
        assertThat(new JsonPath(receiver.at(notices).get(0).bodyText()).getString("data.reason")).isEqualTo("failing");
    }

    @Test
    void theSameEventTwiceOnKafkaFansOutOnce() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.signed_by_both"), RAW_SECRET);
        MandateEvent e = TestEvents.mandate("mandate.signed_by_both", "mnd_" + UUID.randomUUID(), p.id());
        TestEvents.send(e);
        TestEvents.send(e);
        await("the delivery").atMost(WAIT).until(() -> receiver.at(path).size() >= 1);
        await("the event sent twice delivered once").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .until(() -> receiver.at(path).size() == 1);
        assertThat(Api.deliveries(p, sub).getList("data")).hasSize(1);
    }

    @Test
    void rotationSignsWithBothSecretsDuringTheOverlap() throws Exception {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        String next = "next-Secret-after-rotation-77";
        String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.completed"), RAW_SECRET);
        as(p).body(Map.of("secret", next, "overlapSeconds", 3600)).post("/v1/webhooks/" + sub + "/rotate-secret")
                .then().statusCode(200);
        TestEvents.send(TestEvents.mandate("mandate.completed", "mnd_" + UUID.randomUUID(), p.id()));
        await("the delivery").atMost(WAIT).until(() -> receiver.at(path).size() >= 1);
        Received r = receiver.at(path).get(0);
        assertThat(r.header("x-service-signature")).isEqualTo(hmacHex(next, r.body()));
        assertThat(r.header("x-service-signature-previous")).isEqualTo(hmacHex(RAW_SECRET, r.body()));
        assertThat(r.header("webhook-signature").split(" ")).hasSize(2);
        List<Verdict> both = NodeVerifier.verify(List.of(new Item(next, r), new Item(RAW_SECRET, r)));
        assertThat(both.get(0).standard()).isTrue();
        assertThat(both.get(1).standard()).as("the old secret still verifies during the overlap").isTrue();

        as(p).body(Map.of("secret", "third-Secret-no-overlap-99", "overlapSeconds", 0))
                .post("/v1/webhooks/" + sub + "/rotate-secret").then().statusCode(200);
        TestEvents.send(TestEvents.mandate("mandate.completed", "mnd_" + UUID.randomUUID(), p.id()));
        await("the second delivery").atMost(WAIT).until(() -> receiver.at(path).size() >= 2);
        Received r2 = receiver.at(path).get(1);
        assertThat(r2.header("x-service-signature-previous")).isNull();
        List<Verdict> after = NodeVerifier.verify(List.of(new Item("third-Secret-no-overlap-99", r2), new Item(next, r2)));
        assertThat(after.get(0).standard()).isTrue();
        assertThat(after.get(1).standard()).as("the replaced secret no longer verifies").isFalse();
    }

    @Test
    void retryAfterIsHonoured() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        receiver.script(path, new Answer(429, Map.of("Retry-After", "3")));
        Api.subscribe(p, receiver.url(path), List.of("mandate.proposed"), RAW_SECRET);
        TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));
        await("the retry").atMost(WAIT).until(() -> receiver.at(path).size() >= 2);
        List<Received> got = receiver.at(path);
        long gap = got.get(1).receivedAtMillis() - got.get(0).receivedAtMillis();
        assertThat(gap).as("scheduled retry is 1 s; Retry-After asked 3 s").isGreaterThanOrEqualTo(2900);
        assertThat(got.get(1).answered()).isEqualTo(200);
    }

    @Test
    void oneResourceInOrderOthersNotBlocked() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        // the first event's retry waits 3 s (Retry-After), so the other resource's event is consumed before it
        // even when the consumer is cold; with the 1 s schedule the order depended on the consumer's speed
        receiver.script(path, new Answer(429, Map.of("Retry-After", "3")));
        Api.subscribe(p, receiver.url(path), List.of("mandate.proposed", "mandate.signed_by_proposer"), RAW_SECRET);
        String m = "mnd_" + UUID.randomUUID();
        MandateEvent first = TestEvents.mandate("mandate.proposed", m, p.id());
        MandateEvent second = TestEvents.mandate("mandate.signed_by_proposer", m, p.id());
        MandateEvent other = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id());
        TestEvents.send(first);
        await("the first attempt").atMost(WAIT).until(() -> receiver.at(path).size() >= 1);
        TestEvents.send(second);
        TestEvents.send(other);
        await("all deliveries").atMost(WAIT).until(() -> receiver.at(path).size() >= 4);
        List<String> ids = receiver.at(path).stream().map(r -> r.header("webhook-id")).toList();
        assertThat(ids).containsExactly(first.eventId().toString(), other.eventId().toString(),
                first.eventId().toString(), second.eventId().toString());
    }

    @Test
    void manualRedeliverySendsTheSameEventAgain() {
        TestPartner p = TestPartners.register(registry);
        String path = path();
        String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.disputed"), RAW_SECRET);
        MandateEvent e = TestEvents.mandate("mandate.disputed", "mnd_" + UUID.randomUUID(), p.id());
        TestEvents.send(e);
        await("the delivery").atMost(WAIT).until(() -> receiver.at(path).size() >= 1);
        String delivery = Api.deliveries(p, sub).getString("data[0].id");
        await("the success recorded").atMost(WAIT).until(() -> "succeeded".equals(Api.deliveries(p, sub).getString("data[0].status")));
        as(p).post("/v1/webhooks/" + sub + "/deliveries/" + delivery + "/redeliver").then().statusCode(202)
                .body("data.id", equalTo(delivery));
        await("the redelivery").atMost(WAIT).until(() -> receiver.at(path).size() >= 2);
        List<Received> got = receiver.at(path);
        assertThat(got.get(1).header("webhook-id")).isEqualTo(e.eventId().toString());
        assertThat(got.get(1).body()).isEqualTo(got.get(0).body());
        await("the manual attempt logged").atMost(WAIT).until(() -> Api.delivery(p, sub, delivery).getList("data.attempts").size() == 2);
        assertThat(Api.delivery(p, sub, delivery).getList("data.attempts.trigger", String.class))
                .containsExactly("scheduled", "manual");
    }

    static String hmacHex(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
