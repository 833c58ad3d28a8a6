package dev.agentpay.invoice.invoices.domain;

import dev.agentpay.invoice.domain.Usdc;
import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;
import org.p2p.solanaj.utils.Base58;

/**
 * The payment URI of an invoice ({@code paymentDetails.paymentUri}): what a wallet opens from a link or
 * a QR code to pay exactly this invoice.
 *
 * <ul>
 * <li>EVM: an EIP-681 token transfer, {@code ethereum:<usdc>@<chainId>/transfer?address=<payment
 * address>&uint256=<atomic units>}: the call {@code transfer(paymentAddress, payableAtomic)} on the
 * chain's USDC contract. The payment address is the invoice's own deposit address, so the amount
 * alone attributes it.</li>
 * <li>Solana: a Solana Pay transfer request, {@code solana:<recipient>?amount=<decimal>&spl-token=<mint>
 * &reference=<key>&memo=<invoice memo>}. The memo is the one the settlement watcher matches (the
 * invoice id); the reference is a key derived from the invoice id ({@link #solanaReference}), which
 * Solana Pay wallets add to the transfer instruction so the payment can also be found with
 * {@code getSignaturesForAddress(reference)}.</li>
 * </ul>
 */
public final class PaymentUri {

    private PaymentUri() {
    }

    /** The invoice's payment URI; {@code null} for an invoice of the shared-address era (nothing would attribute it). */
    public static String of(Invoice i) {
        return switch (i.addressKind()) {
            case DEPOSIT -> eip681(i.usdcAddress(), i.networkId(), i.paymentAddress(), i.payableAtomic());
            case MEMO -> solana(i.paymentAddress(), i.payableAtomic(), i.usdcAddress(), i.id(), i.memo());
            // the shared-address era: a transfer to the seller wallet is no longer attributed, so no URI invites one
            case SELLER -> null;
        };
    }

    /** EIP-681 {@code transfer} of {@code atomic} units of the token at {@code token} on chain {@code chainId}. */
    public static String eip681(String token, String chainId, String to, BigInteger atomic) {
        return "ethereum:" + token + "@" + chainId + "/transfer?address=" + to + "&uint256=" + atomic;
    }

    /** A Solana Pay SPL transfer request of {@code atomic} units (6 decimals) of {@code mint} to {@code recipient}. */
    public static String solana(String recipient, BigInteger atomic, String mint, UUID invoiceId, String memo) {
        return "solana:" + recipient + "?amount=" + Usdc.fromAtomic(atomic).toPlainString() + "&spl-token=" + mint
                + "&reference=" + solanaReference(invoiceId) + "&memo=" + URLEncoder.encode(memo, StandardCharsets.UTF_8);
    }

    /**
     * The Solana Pay reference of an invoice: base58 of SHA-256("agentpay:invoice:" + id), 32 bytes like any
     * public key (no private key exists for it; a reference is only ever a read-only account of the transfer).
     */
    public static String solanaReference(UUID invoiceId) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256")
                    .digest(("agentpay:invoice:" + invoiceId).getBytes(StandardCharsets.UTF_8));
            return Base58.encode(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
