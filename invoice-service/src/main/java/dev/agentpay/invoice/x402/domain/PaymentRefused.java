package dev.agentpay.invoice.x402.domain;

import dev.agentpay.commons.error.ApiException;

/**
 * A payment this service will not take, answered with HTTP 402, a fresh challenge and a reason: the
 * payer can sign a new payment and call again. Never used for outages (those are 503). The x402 service
 * turns it into the 402 challenge; one that escaped it would still be a 402 error envelope with its code.
 */
public class PaymentRefused extends ApiException {

    public PaymentRefused(String code, String message) {
        super(402, code, message);
    }
}
