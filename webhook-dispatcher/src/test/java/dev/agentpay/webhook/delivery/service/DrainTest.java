package dev.agentpay.webhook.delivery.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The worker's part of a clean shutdown: on SIGTERM (the pre-shutdown event, while the database pool is open) it
 * stops claiming and waits until the attempts in flight have recorded their outcome, so a 2xx the receiver already
 * gave is never sent again by another instance after the lease (RollingRestartIT found one before this).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DrainTest {

    @Inject
    DeliveryWorker worker;
    @Inject
    PartnerRegistry registry;
    @Inject
    Pool pool;

    /** A receiver that holds each request until {@link #answer()}, then answers {@code status}. */
    private static final class HeldReceiver implements AutoCloseable {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CountDownLatch answer = new CountDownLatch(1);
        final HttpServer server;

        HeldReceiver(int status) throws Exception {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/held", ex -> {
                ex.getRequestBody().readAllBytes();
                arrived.countDown();
                try {
                    answer.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ex.sendResponseHeaders(status, -1);
                ex.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/held";
        }

        void answer() {
            answer.countDown();
        }

        @Override
        public void close() {
            answer.countDown();
            server.stop(0);
        }
    }

    /** Subscribes a new partner to {@code url} and sends one event: its delivery's attempt reaches the receiver. */
    private MandateEvent oneDeliveryTo(HeldReceiver receiver) throws Exception {
        TestPartner p = TestPartners.register(registry);
        Api.subscribe(p, receiver.url(), List.of("mandate.proposed"), "raw-Secret-for-drain-tests-4242");
        MandateEvent e = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id());
        TestEvents.send(e);
        assertThat(receiver.arrived.await(30, TimeUnit.SECONDS)).as("the attempt reached the receiver").isTrue();
        return e;
    }

    @Test
    void drainWaitsForTheAttemptInFlightToRecordItsTwoHundred() throws Exception {
        try (HeldReceiver receiver = new HeldReceiver(204)) {
            MandateEvent e = oneDeliveryTo(receiver);
            assertThat(worker.inFlight()).isEqualTo(1);

            CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> worker.drain(Duration.ofSeconds(20)));
            // the receiver has not answered yet: the drain is still waiting, and the delivery is not recorded
            assertThat(drained).isNotDone();
            assertThat(state(e.eventId())).isEqualTo("pending/0");

            receiver.answer();
            assertThat(drained.get(25, TimeUnit.SECONDS)).as("nothing left in flight").isTrue();
            // the drain ended only after the 2xx was committed: no later read is needed
            assertThat(state(e.eventId())).isEqualTo("succeeded/1");
            assertThat(worker.inFlight()).isZero();
        } finally {
            worker.start(null); // the claim loop again, for the tests that share this application
        }
    }

    @Test
    void drainGivesUpAtItsBoundAndSaysSo() throws Exception {
        try (HeldReceiver receiver = new HeldReceiver(200)) {
            MandateEvent e = oneDeliveryTo(receiver);
            assertThat(worker.drain(Duration.ofMillis(300))).as("an attempt is still in flight").isFalse();
            assertThat(state(e.eventId())).isEqualTo("pending/0");
            receiver.answer();
            worker.start(null);
            await("the held attempt recorded").atMost(Duration.ofSeconds(30)).until(() -> worker.inFlight() == 0);
        } finally {
            worker.start(null);
        }
    }

    private String state(UUID eventId) {
        Row r = pool.preparedQuery("select status, attempts from webhook_delivery where event_id = $1")
                .execute(Tuple.of(eventId)).await().atMost(Duration.ofSeconds(10)).iterator().next();
        return r.getString("status") + "/" + r.getInteger("attempts");
    }
}
