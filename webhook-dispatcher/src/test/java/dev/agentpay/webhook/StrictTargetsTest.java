package dev.agentpay.webhook;

import static dev.agentpay.webhook.support.Api.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SSRF guard as production runs it ({@code webhook.allow-private-targets=false}). */
@QuarkusTest
@TestProfile(StrictTargetsTest.Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class StrictTargetsTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("webhook.allow-private-targets", "false");
        }
    }

    static final String SECRET = "strict-Secret-0123456789abcd";

    @Inject
    PartnerRegistry registry;

    @Inject
    Pool pool;

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080/hook", "http://localhost/hook", "http://[::1]/hook",
            "http://[::ffff:127.0.0.1]/hook", "http://[::ffff:a00:1]/hook", "http://10.1.2.3/hook",
            "http://192.168.0.10/hook", "http://172.20.0.1/hook", "http://169.254.169.254/latest/meta-data",
            "http://[fe80::1]/hook", "http://[fd00::1]/hook", "http://224.0.0.1/hook", "http://0.0.0.0/hook",
            "http://100.64.0.1/hook", "http://2130706433/hook", "http://no-such-host.invalid/hook"})
    void privateTargetsAreRefusedAtSubscriptionTime(String url) {
        TestPartner p = TestPartners.register(registry);
        as(p).body(Map.of("url", url, "events", List.of("mandate.proposed"), "secret", SECRET))
                .post("/v1/webhooks").then().statusCode(400)
                .body("success", equalTo(false)).body("error.code", equalTo("url_not_allowed"));
        as(p).get("/v1/webhooks").then().statusCode(200).body("data.size()", equalTo(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://[64:ff9b:1::808:808]/hook", "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
            "http://[64:ff9b::a00:1]/hook", "http://[2002:7f00:1::1]/hook"})
    void nat64TeredoAnd6to4TargetsAreRefused(String url) {
        TestPartner p = TestPartners.register(registry);
        as(p).body(Map.of("url", url, "events", List.of("mandate.proposed"), "secret", SECRET))
                .post("/v1/webhooks").then().statusCode(400).body("error.code", equalTo("url_not_allowed"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://93.184.215.14:99999/hook", "http://93.184.215.14:65536/hook", "http://93.184.215.14:0/hook"})
    void portsOutOfRangeAreRefused(String url) {
        TestPartner p = TestPartners.register(registry);
        as(p).body(Map.of("url", url, "events", List.of("mandate.proposed"), "secret", SECRET))
                .post("/v1/webhooks").then().statusCode(400).body("error.code", equalTo("invalid_url"));
        as(p).get("/v1/webhooks").then().statusCode(200).body("data.size()", equalTo(0));
    }

    @Test
    void aPublicAddressIsAcceptedButCannotBeMovedToAPrivateOne() {
        TestPartner p = TestPartners.register(registry);
        String id = Api.subscribe(p, "http://93.184.215.14/hook", List.of("mandate.expired"), SECRET);
        as(p).body(Map.of("url", "http://127.0.0.1/hook")).patch("/v1/webhooks/" + id).then().statusCode(400)
                .body("error.code", equalTo("url_not_allowed"));
        assertThat(Api.subscription(p, id).getString("data.url")).isEqualTo("http://93.184.215.14/hook");
    }

    /** The address is checked again before each attempt: a name that now resolves privately is refused. */
    @Test
    void aTargetThatTurnedPrivateIsRefusedAtDeliveryTime() {
        try (TestReceiver receiver = new TestReceiver()) {
            TestPartner p = TestPartners.register(registry);
            // As if DNS changed after the subscription was accepted: the stored URL now points at loopback.
            UUID sub = UUID.randomUUID();
            pool.preparedQuery("insert into webhook_subscription (id, partner_id, url, events, secret)"
                            + " values ($1, $2, $3, $4, $5)")
                    .execute(Tuple.of(sub, p.id(), receiver.url("/turned-private"), new String[] {"mandate.proposed"}, SECRET))
                    .await().atMost(Duration.ofSeconds(10));
            TestEvents.send(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));
            JsonPath log = await("a refused attempt").atMost(Duration.ofSeconds(30)).until(() -> Api.deliveries(p, sub.toString()), j -> j.getInt("data.size()") == 1 && j.getInt("data[0].attemptCount") >= 1);
            assertThat(log.getString("data[0].lastError")).contains("target refused");
            assertThat((Object) log.get("data[0].lastResponseCode")).isNull();
            assertThat(receiver.total()).isZero();
        }
    }
}
