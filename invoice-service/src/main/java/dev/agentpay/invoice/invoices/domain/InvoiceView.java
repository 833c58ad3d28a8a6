package dev.agentpay.invoice.invoices.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import dev.agentpay.invoice.domain.Usdc;

/**
 * The Invoice object as the API returns it and as {@code invoice.*} events carry it. Settlement
 * fields appear only once settled; {@code memo} only on Solana invoices; {@code paidAmount} /
 * {@code paidAtomic} always (what arrived so far), {@code excessAmount} only when overpaid.
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
        String settledAt,
        String expiresAt,
        String expiredAt,
        @org.eclipse.microprofile.openapi.annotations.media.Schema(description = "the mandate whose budget this invoice "
                + "charges (an invoice made by POST /v1/mandates/{id}/charges); absent otherwise") String mandateId,
        @org.eclipse.microprofile.openapi.annotations.media.Schema(description = "the charge it belongs to; absent "
                + "otherwise") String chargeId) {

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
            @org.eclipse.microprofile.openapi.annotations.media.Schema(description = "what settled it: evm-detector, "
                    + "solana-detector, x402, or escrow (a charge paid from its mandate's escrow, issue 30; txHash is the release)",
                    examples = "escrow") String settlementSource,
            String paidAtomic,
            String payerAddress,
            BigDecimal paidAmount,
            BigDecimal excessAmount,
            @Schema(description = "what a wallet opens to pay this invoice (a link or the QR code of a payment page): EVM an"
                    + " EIP-681 transfer `ethereum:<usdc>@<chainId>/transfer?address=<paymentAddress>&uint256=<payableAtomic>`;"
                    + " Solana a Solana Pay transfer request `solana:<paymentAddress>?amount=<payableAmount>&spl-token=<mint>"
                    + "&reference=<key>&memo=<memo>`; absent on invoices of the shared-address era")
            String paymentUri) {
    }

    public static InvoiceView of(Invoice i) {
        return new InvoiceView(i.id(), i.invoiceNumber(), i.status().name(), Usdc.plain(i.amount()), i.currency(),
                i.customerEmail(), i.customerName(), i.description(),
                new PaymentDetails(i.chain(), i.networkId(), i.paymentAddress(), i.usdcAddress(),
                        Usdc.fromAtomic(i.payableAtomic()), i.payableAtomic().toString(), i.memo(),
                        i.txHash(), i.settlementBlockNumber(), i.settlementSource(),
                        i.paidAtomic().toString(), i.payerAddress(), Usdc.fromAtomic(i.paidAtomic()),
                        i.excessAtomic().signum() > 0 ? Usdc.fromAtomic(i.excessAtomic()) : null, PaymentUri.of(i)),
                iso(i.createdAt()), iso(i.settledAt()), iso(i.expiresAt()), iso(i.expiredAt()), i.mandateId(), i.chargeId());
    }

    private static String iso(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
