package dev.agentpay.commons.auth;

/** An authenticated partner: who made the request. */
public record Partner(String id, String name) {
}
