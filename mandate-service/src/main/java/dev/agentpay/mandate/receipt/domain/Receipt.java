package dev.agentpay.mandate.receipt.domain;

import java.time.Instant;

/**
 * A DRS receipt: proof that both parties signed the mandate with this hash, with their signatures and
 * the signing times. Issued once, when the counterparty signs.
 */
public record Receipt(
        String id,
        String mandateId,
        String partnerId,
        String mandateHash,
        String proposerSignature,
        String counterpartySignature,
        Instant signedByProposerAt,
        Instant signedByCounterpartyAt,
        Instant issuedAt,
        /** Parties form: every party's signature ({@code parties} column JSON text); null for a two-party mandate. */
        String parties) {
}
