package dev.agentpay.commons.consumer;

/**
 * A record that can never be applied, however often it is tried (it does not decode, or fails
 * validation): {@link Consumers} sends it to the consumer's dead-letter topic instead of retrying.
 */
public class PoisonRecordException extends RuntimeException {

    public PoisonRecordException(String reason) {
        super(reason);
    }

    public PoisonRecordException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
