package dev.agentpay.invoice.settlement.messaging;

import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;

/**
 * Decoding for settlement's consumers: a record that does not decode can never be applied, so it is poison
 * ({@link PoisonRecordException}), dead-lettered with the reason {@code "undecodable <what>: <why>"}.
 */
final class PoisonDecoding {

    private PoisonDecoding() {
    }

    /** The event {@code payload} carries; poison when it does not decode as a {@code type}. */
    static <T extends DomainEvent> T decode(String payload, Class<T> type, String what) {
        try {
            return EventCodec.decode(payload, type);
        } catch (IllegalArgumentException e) {
            throw new PoisonRecordException("undecodable " + what + ": " + e.getMessage(), e);
        }
    }
}
