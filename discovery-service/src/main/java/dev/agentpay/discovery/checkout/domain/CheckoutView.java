package dev.agentpay.discovery.checkout.domain;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * What the payment page shows of one invoice, read from invoice-service's public capability view
 * ({@code GET /v1/invoices/{id}/pay}). Every text is rendered escaped by the template; only {@link #qrSvg}, drawn
 * here, is inserted as markup.
 */
public record CheckoutView(
        String id,
        long invoiceNumber,
        String description,
        String amount,
        String currency,
        String chain,
        String chainLabel,
        String networkId,
        boolean evm,
        String paymentAddress,
        String usdcAddress,
        String payableAtomic,
        String memo,
        String paymentUri,
        String qrSvg,
        String expiresAt,
        String expiresText,
        Status status) {

    /** The page's status line; {@code state} is one of pending, partial, paid, expired, paid_late (the script's CSS classes). */
    public record Status(String state, String text, String detail, String txHash, String txUrl) {
    }

    static final Map<String, String> LABELS = Map.of("base", "Base", "polygon", "Polygon", "arbitrum", "Arbitrum One",
            "skale", "SKALE", "solana", "Solana");

    static final DateTimeFormatter SHOWN = DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    public static String chainLabel(String chain) {
        return LABELS.getOrDefault(chain, chain);
    }

    /** The status of an invoice (the JSON Invoice object), as the page and its script say it. */
    public static Status status(JsonNode inv, String txUrlPrefix) {
        JsonNode pd = inv.path("paymentDetails");
        BigDecimal amount = decimal(inv.path("amount"));
        BigDecimal paid = decimal(pd.path("paidAmount"));
        String tx = text(pd.path("txHash"));
        String txUrl = tx != null && txUrlPrefix != null && !txUrlPrefix.isBlank() ? txUrlPrefix + tx : null;
        String of = plain(paid) + " of " + plain(amount) + " USDC received";
        return switch (inv.path("status").asText()) {
            case "SETTLED" -> {
                BigDecimal excess = decimal(pd.path("excessAmount"));
                yield new Status("paid", "Paid", excess.signum() > 0 ? "Overpaid by " + plain(excess) + " USDC" : plain(paid) + " USDC received",
                        tx, txUrl);
            }
            case "EXPIRED" -> paid.compareTo(amount) >= 0 && amount.signum() > 0
                    ? new Status("paid_late", "Paid late", of + " after the invoice expired: contact the seller", tx, txUrl)
                    : new Status("expired", "Expired", paid.signum() > 0 ? of + ": contact the seller" : "This invoice can no longer be paid", null, null);
            default -> paid.signum() > 0
                    ? new Status("partial", "Partially paid", of + "; send the rest to the same address", null, null)
                    : new Status("pending", "Awaiting payment", null, null, null);
        };
    }

    public static String shownTime(String iso) {
        if (iso == null) {
            return null;
        }
        try {
            return SHOWN.format(Instant.parse(iso));
        } catch (RuntimeException e) {
            return iso;
        }
    }

    static BigDecimal decimal(JsonNode n) {
        try {
            return n.isMissingNode() || n.isNull() ? BigDecimal.ZERO : new BigDecimal(n.asText());
        } catch (NumberFormatException e) {
            return BigDecimal.ZERO;
        }
    }

    static String plain(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        return (s.scale() < 0 ? s.setScale(0) : s).toPlainString();
    }

    static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() ? null : n.asText();
    }
}
