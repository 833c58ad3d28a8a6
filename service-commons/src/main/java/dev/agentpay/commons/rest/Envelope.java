package dev.agentpay.commons.rest;

/**
 * The success envelope of every service: {@code {success: true, data}}. The one way an answer is
 * wrapped (the error side is {@link dev.agentpay.commons.error.ErrorBody}); the merged OpenAPI document
 * describes each operation's {@code data} inside it.
 */
public record Envelope<T>(boolean success, T data) {

    public static <T> Envelope<T> of(T data) {
        return new Envelope<>(true, data);
    }
}
