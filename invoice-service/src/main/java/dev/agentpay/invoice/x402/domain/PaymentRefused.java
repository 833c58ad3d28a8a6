package dev.agentpay.invoice.x402.domain;

/**
 * A payment this service will not take, answered with HTTP 402, a fresh challenge and a reason: the
 * payer can sign a new payment and call again. Never used for outages (those are 503).
 */
public class PaymentRefused extends RuntimeException {

    private final String code;

    public PaymentRefused(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
