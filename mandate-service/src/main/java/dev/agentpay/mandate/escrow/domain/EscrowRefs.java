package dev.agentpay.mandate.escrow.domain;

import org.web3j.crypto.Hash;

/** The {@code ref} of an escrow release: keccak-256 of the charge id's UTF-8 bytes, so each charge is paid once, ever. */
public final class EscrowRefs {

    private EscrowRefs() {
    }

    /** {@code 0x} + 64 lower-case hex digits. */
    public static String ref(String chargeId) {
        return Hash.sha3String(chargeId).toLowerCase(java.util.Locale.ROOT);
    }
}
