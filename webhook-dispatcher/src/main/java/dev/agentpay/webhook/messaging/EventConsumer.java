package dev.agentpay.webhook.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.webhook.service.FanOutService;
import dev.agentpay.webhook.service.FanOutService.Input;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes every event topic in poll batches and fans them out. The returned Uni completes after the
 * fan-out committed, so the offsets never move past an event that was not stored; database failures
 * are retried with backoff instead of skipping records. Only an undecodable record is skipped (logged).
 */
@ApplicationScoped
public class EventConsumer {

    public static final String MANDATE_CHANNEL = "mandate-events-in";
    public static final String INVOICE_CHANNEL = "invoice-events-in";
    public static final String PLATFORM_CHANNEL = "platform-events-in";

    private static final Logger LOG = Logger.getLogger(EventConsumer.class);

    private final FanOutService fanOut;

    public EventConsumer(FanOutService fanOut) {
        this.fanOut = fanOut;
    }

    @Incoming(MANDATE_CHANNEL)
    public Uni<Void> onMandate(List<String> payloads) {
        return handle(payloads, MandateEvent.class, MandateEvent::mandate, false);
    }

    @Incoming(INVOICE_CHANNEL)
    public Uni<Void> onInvoice(List<String> payloads) {
        return handle(payloads, InvoiceEvent.class, InvoiceEvent::invoice, false);
    }

    /** Platform events have no owner: they go to every subscriber of their type. */
    @Incoming(PLATFORM_CHANNEL)
    public Uni<Void> onPlatform(List<String> payloads) {
        return handle(payloads, PlatformEvent.class, PlatformEvent::data, true);
    }

    private <T extends DomainEvent> Uni<Void> handle(List<String> payloads, Class<T> type, Function<T, JsonNode> data,
            boolean broadcast) {
        List<Input> inputs = new ArrayList<>(payloads.size());
        for (String payload : payloads) {
            T event;
            try {
                event = EventCodec.decode(payload, type);
            } catch (IllegalArgumentException e) {
                LOG.errorf("skipping undecodable %s record: %s", type.getSimpleName(), e.getMessage());
                continue;
            }
            if (event.eventId() == null || event.type() == null || event.aggregateId() == null) {
                LOG.errorf("skipping %s record without id, type or aggregate id", type.getSimpleName());
                continue;
            }
            inputs.add(new Input(event, data.apply(event), broadcast));
        }
        return fanOut.accept(inputs)
                .onFailure().invoke(e -> LOG.warnf("fan-out of %d event(s) failed, retrying: %s", inputs.size(), e.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).indefinitely()
                .replaceWithVoid();
    }
}
