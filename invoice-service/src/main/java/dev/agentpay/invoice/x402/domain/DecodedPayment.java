package dev.agentpay.invoice.x402.domain;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.time.Instant;

/**
 * A payment header decoded and checked against the requirements it claims to meet.
 *
 * @param version      x402 protocol version of the header (1: {@code X-PAYMENT}, 2: {@code PAYMENT-SIGNATURE})
 * @param rail         EVM or SOLANA
 * @param network      x402 v1 network name (the facilitator's wire form)
 * @param payer        EVM {@code authorization.from}; for Solana the payer's signature key is not decoded (null)
 * @param amount       atomic units authorized (EVM) or required (Solana: checked by the facilitator)
 * @param validBefore  end of the EVM authorization's validity (null for Solana)
 * @param key          replay key: {@code evm:<chainId>:<asset>:<from>:<nonce>} or {@code svm:<signature>}
 * @param nonce        EVM authorization nonce (null for Solana)
 * @param v1Payload    the payment in x402 v1 shape, as sent to the facilitator
 * @param requirement  the requirement it pays
 */
public record DecodedPayment(int version, Rail rail, String network, String payer, BigInteger amount,
        Instant validBefore, String key, String nonce, ObjectNode v1Payload, PaymentRequirement requirement) {

    /** Which chain family pays. */
    public enum Rail {
        EVM, SOLANA
    }
}
