package dev.agentpay.invoice.rest;

/** The success envelope {@code {success: true, data}}. */
public record Envelope<T>(boolean success, T data) {

    public static <T> Envelope<T> of(T data) {
        return new Envelope<>(true, data);
    }
}
