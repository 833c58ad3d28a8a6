package dev.agentpay.mandate.escrow.domain;

/** What a partner asks funding instructions for: chain, payer wallet, optional stream (ISO instants), method. */
public record FundingRequest(String chain, String payer, String streamStart, String streamEnd, String method) {
}
