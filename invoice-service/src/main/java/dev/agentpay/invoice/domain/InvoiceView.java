package dev.agentpay.invoice.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * The Invoice object as the API returns it and as {@code invoice.*} events carry it. Settlement
 * fields appear only once settled; {@code memo} only on Solana invoices.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InvoiceView(
        UUID id,
        long invoiceNumber,
        String status,
        BigDecimal amount,
        String currency,
        String customerEmail,
        String customerName,
        String description,
        PaymentDetails paymentDetails,
        String createdAt,
        String settledAt) {

    /** Where and how to pay, and after settlement what paid it. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record PaymentDetails(
            String chain,
            String networkId,
            String paymentAddress,
            String usdcAddress,
            BigDecimal payableAmount,
            String payableAtomic,
            String memo,
            String txHash,
            Long settlementBlockNumber,
            String settlementSource,
            String paidAtomic,
            String payerAddress) {
    }

    public static InvoiceView of(Invoice i) {
        return new InvoiceView(i.id(), i.invoiceNumber(), i.status().name(), Usdc.plain(i.amount()), i.currency(),
                i.customerEmail(), i.customerName(), i.description(),
                new PaymentDetails(i.chain(), i.networkId(), i.paymentAddress(), i.usdcAddress(),
                        Usdc.fromAtomic(i.payableAtomic()), i.payableAtomic().toString(), i.memo(),
                        i.txHash(), i.settlementBlockNumber(), i.settlementSource(),
                        i.paidAtomic() == null ? null : i.paidAtomic().toString(), i.payerAddress()),
                iso(i.createdAt()), iso(i.settledAt()));
    }

    private static String iso(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
