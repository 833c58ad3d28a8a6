package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.config.AnchorConfig;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.utils.Numeric;

/**
 * Holds the anchor signers' keys (never exposed: {@code anchor.signer-key} and, during a rotation,
 * {@code anchor.next-signer-key}) and signs EIP-1559 transactions to the anchor contract. New batches are
 * signed by the <em>active</em> signer: the configured signer until a rotation switches to the next one
 * ({@link SignerRotation} sets it from the database at every round, so every instance agrees).
 */
@ApplicationScoped
public class AnchorSigner {

    @Inject
    AnchorConfig config;

    /** Address (lower-case {@code 0x} hex) to its key, in configuration order: the signer key first. */
    private final Map<String, Credentials> keys = new LinkedHashMap<>();
    private volatile String active;

    @PostConstruct
    void init() {
        Credentials current = Credentials.create(config.signerKey().reveal());
        keys.put(current.getAddress().toLowerCase(Locale.ROOT), current);
        config.nextSignerKey().ifPresent(k -> {
            Credentials next = Credentials.create(k.reveal());
            keys.putIfAbsent(next.getAddress().toLowerCase(Locale.ROOT), next);
        });
        active = configured();
    }

    /** The active signer's address, lower-case {@code 0x} hex: the one that signs new batches. */
    public String address() {
        return active;
    }

    /** The address of {@code anchor.signer-key}. */
    public String configured() {
        return keys.keySet().iterator().next();
    }

    /** The address of {@code anchor.next-signer-key}, or null when none is configured (or it is the signer key). */
    public String next() {
        return keys.size() > 1 ? List.copyOf(keys.keySet()).get(1) : null;
    }

    /** Every address this instance holds a key for. */
    public List<String> addresses() {
        return List.copyOf(keys.keySet());
    }

    public boolean holds(String address) {
        return address != null && keys.containsKey(address.toLowerCase(Locale.ROOT));
    }

    /** Makes {@code address} the active signer; fails when its key is not configured here. */
    void activate(String address) {
        String a = address.toLowerCase(Locale.ROOT);
        if (!keys.containsKey(a)) {
            throw new IllegalStateException("the active anchor signer is " + a + " but neither anchor.signer-key nor"
                    + " anchor.next-signer-key is its key");
        }
        active = a;
    }

    /**
     * Signs a no-op (0-value transfer to itself, 21,000 gas) that only uses up the active signer's {@code nonce}:
     * fills a nonce the chain lost, so the signer's later transactions can be mined (gap healing).
     */
    public SignedTx signNoop(long nonce, BigInteger maxPriorityFeeWei, BigInteger maxFeeWei) {
        String from = active;
        RawTransaction tx = RawTransaction.createTransaction(config.chainId(), BigInteger.valueOf(nonce), BigInteger.valueOf(21_000),
                from, BigInteger.ZERO, "0x", maxPriorityFeeWei, maxFeeWei);
        byte[] signed = TransactionEncoder.signMessage(tx, key(from));
        return new SignedTx(nonce, Numeric.toHexString(Hash.sha3(signed)), Numeric.toHexString(signed), 0, BigInteger.valueOf(21_000),
                maxFeeWei, maxPriorityFeeWei);
    }

    /** Signs a call to the anchor contract by the active signer; the hash is computed locally so it is known before broadcasting. */
    public SignedTx sign(long nonce, BigInteger gasLimit, String data, BigInteger maxPriorityFeeWei, BigInteger maxFeeWei,
            int itemCount) {
        return signAs(active, nonce, gasLimit, data, maxPriorityFeeWei, maxFeeWei, itemCount);
    }

    /** Signs a call to the anchor contract by {@code from} (a rotation's outgoing or incoming signer). */
    public SignedTx signAs(String from, long nonce, BigInteger gasLimit, String data, BigInteger maxPriorityFeeWei,
            BigInteger maxFeeWei, int itemCount) {
        RawTransaction tx = RawTransaction.createTransaction(config.chainId(), BigInteger.valueOf(nonce), gasLimit,
                config.contractAddress(), BigInteger.ZERO, data, maxPriorityFeeWei, maxFeeWei);
        byte[] signed = TransactionEncoder.signMessage(tx, key(from));
        return new SignedTx(nonce, Numeric.toHexString(Hash.sha3(signed)), Numeric.toHexString(signed), itemCount, gasLimit,
                maxFeeWei, maxPriorityFeeWei);
    }

    private Credentials key(String address) {
        Credentials c = keys.get(address.toLowerCase(Locale.ROOT));
        if (c == null) {
            throw new IllegalStateException("no key configured for anchor signer " + address);
        }
        return c;
    }
}
