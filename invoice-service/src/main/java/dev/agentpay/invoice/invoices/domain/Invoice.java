package dev.agentpay.invoice.invoices.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * One invoice as stored. Amounts: {@code amount} in USDC, {@code *Atomic} in the token's 6-decimal units;
 * {@code paidAtomic} is everything received so far (partial payments add up).
 */
public record Invoice(
        UUID id,
        long invoiceNumber,
        String partnerId,
        InvoiceStatus status,
        BigDecimal amount,
        String currency,
        String customerEmail,
        String customerName,
        String description,
        String chain,
        String networkId,
        String paymentAddress,
        String usdcAddress,
        BigInteger payableAtomic,
        String memo,
        String txHash,
        Long settlementBlockNumber,
        String settlementSource,
        String settlementTransferId,
        BigInteger paidAtomic,
        String payerAddress,
        Instant settledAt,
        Instant createdAt,
        AddressKind addressKind,
        Instant expiredAt,
        Instant expiresAt,
        /** The mandate whose budget this invoice charges (issue 28), or null. */
        String mandateId,
        /** The charge this invoice belongs to (mandate-service's id), or null. */
        String chargeId) {

    /** How payments are attributed to the invoice (see README "Matching"). */
    public enum AddressKind {
        /** EVM: the invoice's own CREATE2 deposit address; a transfer to it is a payment of this invoice. */
        DEPOSIT,
        /** Solana: the seller wallet plus the invoice's memo. */
        MEMO,
        /** EVM invoices created before per-invoice addresses (shared seller wallet): no longer attributed. */
        SELLER
    }

    /** True when the invoice has a deadline and {@code now} is at or past it. */
    public boolean dueToExpire(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** Received beyond the amount (0 unless overpaid). */
    public BigInteger excessAtomic() {
        return paidAtomic.compareTo(payableAtomic) > 0 ? paidAtomic.subtract(payableAtomic) : BigInteger.ZERO;
    }
}
