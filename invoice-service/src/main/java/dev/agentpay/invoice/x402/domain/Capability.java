package dev.agentpay.invoice.x402.domain;

import dev.agentpay.invoice.x402.config.X402Config;

/** The paid calls: their path, what the challenge says about them, and their price. */
public enum Capability {

    INVOICE("invoice", "/api/x402/invoice", "Create a USDC invoice (agentpay invoice-service)"),
    SETTLE("settle", "/api/x402/settle", "Check an invoice's settlement status (agentpay invoice-service)"),
    /** Paying an invoice itself: the price is what the invoice still asks for, paid to its own address. */
    PAY("pay", "/v1/invoices/{id}/pay", "Pay this USDC invoice (agentpay invoice-service)");

    private final String value;
    private final String path;
    private final String description;

    Capability(String value, String path, String description) {
        this.value = value;
        this.path = path;
        this.description = description;
    }

    /** The {@code capability} of success bodies and of stored payments. */
    public String value() {
        return value;
    }

    public String path() {
        return path;
    }

    public String description() {
        return description;
    }

    /** Price in USDC atomic units, from the one price configuration ({@link #PAY}: the invoice's own amount). */
    public long price(X402Config config) {
        return switch (this) {
            case INVOICE -> config.prices().invoice();
            case SETTLE -> config.prices().settle();
            case PAY -> throw new IllegalStateException("an invoice payment is priced by its invoice");
        };
    }

    public static Capability of(String value) {
        for (Capability c : values()) {
            if (c.value.equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown capability " + value);
    }
}
