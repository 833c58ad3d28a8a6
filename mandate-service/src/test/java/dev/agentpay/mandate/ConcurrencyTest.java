package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Twenty counterparty signs of one mandate at once: exactly one wins, one transition row, one event. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ConcurrencyTest {

    @Test
    void twentyParallelCounterpartySignsGiveOneSuccess() throws Exception {
        TestPartner p = Api.newPartner("Racer");
        TestMandate m = Api.create(p);
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);

        HttpClient http = HttpClient.newHttpClient();
        String body = "{\"signer\":\"counterparty\",\"signature\":\"" + m.signature() + "\"}";
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/v1/mandates/"
                        + m.id() + "/sign"))
                .header("x-api-key", p.apiKey()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            futures.add(pool.submit(() -> {
                start.await();
                return http.send(req, HttpResponse.BodyHandlers.ofString());
            }));
        }
        start.countDown();
        List<HttpResponse<String>> responses = new ArrayList<>();
        for (var f : futures) {
            responses.add(f.get());
        }
        pool.shutdown();

        Map<Integer, Long> byStatus = responses.stream().collect(Collectors.groupingBy(HttpResponse::statusCode,
                Collectors.counting()));
        assertThat(byStatus).containsExactlyInAnyOrderEntriesOf(Map.of(200, 1L, 409, 19L));
        assertThat(responses.stream().filter(r -> r.statusCode() == 409))
                .allSatisfy(r -> assertThat(r.body()).contains("\"invalid_transition\""));

        var transitions = Api.get(m).jsonPath().getList("data.transitions.to_state");
        assertThat(transitions).containsExactly("proposed", "signed_by_proposer", "signed_by_both");
        MandateEvents.get().await(m.id(), 3);
        // a later event of this mandate (a second winner) would arrive within the relay's wake-up: there must be none
        await("no event past the three transitions").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(MandateEvents.get().of(m.id())).extracting(e -> e.event().type())
                        .containsExactly("mandate.proposed", "mandate.signed_by_proposer", "mandate.signed_by_both"));
    }
}
