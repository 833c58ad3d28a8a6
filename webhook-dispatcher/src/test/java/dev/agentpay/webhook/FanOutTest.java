package dev.agentpay.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository.FanOutEvent;
import dev.agentpay.webhook.delivery.service.FanOutService.FanOutResult;
import dev.agentpay.webhook.delivery.service.FanOutService;
import dev.agentpay.webhook.delivery.service.FanOutService.Input;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The fan-out statement against the real database: what it reports decides whether the delivery worker
 * gets a claim round, so an event nobody subscribed to must report no queued delivery (and cost no
 * round), and a matching one exactly one per subscription, once.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class FanOutTest {

    @Inject
    PartnerRegistry registry;

    @Inject
    FanOutService fanOut;

    private FanOutResult fanOut(MandateEvent... batch) {
        List<FanOutEvent> events = Arrays.stream(batch)
                .map(e -> FanOutService.fanOutEvent(new Input(e, e.mandate(), false))).toList();
        return fanOut.fanOut("fan-out-test", events)
                .await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void anEventWithoutSubscriberQueuesNothingAndAMatchingOneQueuesOnePerSubscriptionOnce() {
        TestPartner p = TestPartners.register(registry);
        String mandateId = "mnd_" + UUID.randomUUID();

        MandateEvent unwatched = TestEvents.mandate("mandate.proposed", mandateId, p.id());
        assertThat(fanOut(unwatched)).isEqualTo(new FanOutResult(1, 0));

        Api.subscribe(p, TestReceiver.shared().url("/fan-out/" + UUID.randomUUID()), List.of("mandate.signed_by_proposer"), "secret-a-for-fan-out-tests");
        Api.subscribe(p, TestReceiver.shared().url("/fan-out/" + UUID.randomUUID()), List.of("mandate.signed_by_proposer"), "secret-b-for-fan-out-tests");
        MandateEvent watched = TestEvents.mandate("mandate.signed_by_proposer", mandateId, p.id());
        assertThat(fanOut(watched)).isEqualTo(new FanOutResult(1, 2));
        // redelivered: already processed, nothing new and nothing queued
        assertThat(fanOut(watched)).isEqualTo(new FanOutResult(0, 0));
        // a batch of two matching events queues two per subscription
        assertThat(fanOut(TestEvents.mandate("mandate.signed_by_proposer", mandateId, p.id()),
                TestEvents.mandate("mandate.signed_by_proposer", "mnd_" + UUID.randomUUID(), p.id())))
                .isEqualTo(new FanOutResult(2, 4));
        // another partner's subscriptions do not see it
        TestPartner other = TestPartners.register(registry);
        MandateEvent foreign = TestEvents.mandate("mandate.signed_by_proposer", "mnd_" + UUID.randomUUID(), other.id());
        assertThat(fanOut(foreign)).isEqualTo(new FanOutResult(1, 0));
    }
}
