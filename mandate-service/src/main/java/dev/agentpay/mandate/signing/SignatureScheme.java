package dev.agentpay.mandate.signing;

import java.util.Arrays;
import java.util.Locale;

/**
 * How a party signs a mandate; fixed per party at creation.
 *
 * <ul>
 *   <li>{@link #HMAC}: v0.1. Lowercase hex HMAC-SHA256 of the canonical bytes with the partner's signing
 *       secret. Both parties of one partner produce the same bytes, so the signature does not name the
 *       role, and only someone holding the secret (the partner or the service) can check it.</li>
 *   <li>{@link #HMAC_ROLE}: v0.2. The same HMAC over the canonical object with one more key,
 *       {@code signer_role} ({@code "proposer"} or {@code "counterparty"}), in its alphabetical place: the
 *       proposer's signature is no longer a valid counterparty signature.</li>
 *   <li>{@link #EIP712}: v0.2. The party is a wallet (a CAIP-10 {@code eip155} account) and signs the
 *       mandate's EIP-712 typed data ({@link Eip712Mandate}); anyone can recover the signer.</li>
 * </ul>
 */
public enum SignatureScheme {
    HMAC,
    HMAC_ROLE,
    EIP712;

    /** The wire name: the constant's name in lower case, {@code -} for {@code _} ({@code hmac-role}). */
    public String wire() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether a third party can check this signature without the service's secrets. */
    public boolean publiclyVerifiable() {
        return this == EIP712;
    }

    /** Whether the signed bytes name the signer's role. */
    public boolean roleBound() {
        return this != HMAC;
    }

    /** The scheme named {@code wire}, or null. */
    public static SignatureScheme fromWire(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(wire)).findFirst().orElse(null);
    }
}
