package dev.agentpay.anchor.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithConverter;
import io.smallrye.config.WithDefault;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Optional;

/** Settings of anchor-service: the anchor network, its signer, batching, confirmation and fees. */
@ConfigMapping(prefix = "anchor")
public interface AnchorConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("anchor-service")
    String serviceName();

    /** JSON-RPC endpoint of the anchor network (env {@code ANCHOR_RPC_URL}). */
    String rpcUrl();

    /** Chain id the RPC endpoint must report; the service refuses to start on a mismatch (env {@code ANCHOR_CHAIN_ID}). */
    long chainId();

    /** Address of the deployed MandateAnchor contract (env {@code ANCHOR_CONTRACT_ADDRESS}). */
    String contractAddress();

    /**
     * Private key of the single anchor signer, hex (env {@code ANCHOR_SIGNER_KEY}, from a secret).
     * Its {@code toString} is masked so that it can never reach a log.
     */
    @WithConverter(SignerKey.Converter.class)
    SignerKey signerKey();

    /**
     * The next signer's private key, hex (env {@code ANCHOR_NEXT_SIGNER_KEY}, from a secret), held during a
     * rotation: {@code POST /admin/v1/anchor/signers/rotate} has the current signer authorise it on the
     * contract, switches to it, and has it retire the old one (README, "Signer rotation"). Masked like the
     * signer key. Empty: no rotation possible.
     */
    @WithConverter(SignerKey.Converter.class)
    Optional<SignerKey> nextSignerKey();

    /** Base URL of the block explorer; a transaction is shown at {@code <explorer-url>/tx/<hash>} (env {@code ANCHOR_EXPLORER_URL}). */
    @WithDefault("https://sepolia.basescan.org")
    String explorerUrl();

    /** How long the batcher collects intents after the first one arrives before sending one transaction. */
    @WithDefault("200ms")
    Duration batchWindow();

    /**
     * Most transitions anchored by one {@code anchorBatch} transaction (250: about 1.05 M gas and 32 KB
     * of calldata, a quarter of the 128 KB transaction size limit of geth-based nodes).
     */
    @WithDefault("250")
    int maxBatchSize();

    /** Blocks a receipt needs (its own block counts as one) before the anchor is recorded and published. */
    @WithDefault("1")
    int confirmations();

    /** How often sent transactions are checked for receipts while any is outstanding. */
    @WithDefault("100ms")
    Duration receiptPollInterval();

    /** A sent transaction without a receipt for this long is broadcast again (same signed bytes). */
    @WithDefault("15s")
    Duration rebroadcastAfter();

    /** How long the start-up check (chain id, nonce reconciliation) keeps retrying an unreachable RPC. */
    @WithDefault("60s")
    Duration startupTimeout();

    /**
     * Readiness is DOWN while anchoring is stalled: open transactions and none confirmed for this long,
     * or the chain's nonce behind our lowest open transaction (a nonce gap being healed).
     */
    @WithDefault("120s")
    Duration stallAfter();

    /** RPC client behaviour. */
    Rpc rpc();

    /** EIP-1559 fee policy. */
    Fees fees();

    /** RPC timeouts and retries (owned by the chain client). */
    interface Rpc {
        /** Time limit of one JSON-RPC call. */
        @WithDefault("10s")
        Duration timeout();

        /** Retries of a failed call (connection errors, timeouts) before the caller sees the failure. */
        @WithDefault("4")
        int retries();

        /** First back-off delay between retries; doubles each time up to {@link #maxBackoff()}. */
        @WithDefault("100ms")
        Duration initialBackoff();

        /** Longest back-off delay between retries. */
        @WithDefault("2s")
        Duration maxBackoff();
    }

    /** EIP-1559 fee settings, in wei. */
    interface Fees {
        /** Tip offered to the block producer ({@code maxPriorityFeePerGas}). */
        @WithDefault("1000000")
        BigInteger maxPriorityFeeWei();

        /** {@code maxFeePerGas} = latest base fee x this multiplier + the tip (2 survives six full blocks). */
        @WithDefault("2")
        int baseFeeMultiplier();

        /** Ceiling of {@code maxFeePerGas}; above it the service waits rather than overpay. */
        @WithDefault("50000000000")
        BigInteger maxFeeCapWei();

        /** Safety margin added to {@code eth_estimateGas}, in percent. */
        @WithDefault("25")
        int gasLimitMarginPercent();
    }
}
