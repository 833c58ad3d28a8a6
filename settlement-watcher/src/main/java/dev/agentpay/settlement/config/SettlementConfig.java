package dev.agentpay.settlement.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings of settlement-watcher (the chain table itself is {@code dev.agentpay.commons.chains.ChainsConfig}). */
@ConfigMapping(prefix = "settlement")
public interface SettlementConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("settlement-watcher")
    String serviceName();

    /** Whether the chain loops run (off only for tests that drive them by hand). */
    @WithDefault("true")
    boolean enabled();

    /** EVM scanning. */
    Evm evm();

    /** Solana polling. */
    Solana solana();

    /** EVM scanning. */
    interface Evm {

        /**
         * Where a chain seen for the first time starts: this many blocks below its confirmed head (the
         * seller wallet is new, so older history holds no invoice payments).
         */
        @WithDefault("100")
        int initialLookback();

        /** How many scanned block hashes are remembered per chain to find the fork point of a reorg. */
        @WithDefault("2048")
        int rememberedBlocks();

        /** Timeout of one JSON-RPC call. */
        @WithDefault("PT10S")
        Duration rpcTimeout();
    }

    /** Solana polling. */
    interface Solana {

        /** Most signatures asked for per {@code getSignaturesForAddress} page. */
        @WithDefault("100")
        int pageSize();

        /** Timeout of one JSON-RPC call. */
        @WithDefault("PT10S")
        Duration rpcTimeout();

        /**
         * The commitment a payment must reach before it is published: {@code finalized} (the default:
         * rooted, never rolled back) or {@code confirmed} (voted by a supermajority, about 0.4 s after
         * landing instead of about 13 s; a confirmed block has never been rolled back on mainnet, but
         * nothing guarantees it).
         */
        @WithDefault("finalized")
        Commitment commitment();

        /**
         * Fee payers of x402 facilitators ({@code X402_SOLANA_FEE_PAYER}). A transaction whose fee payer is
         * one of them is an x402 payment, settled and recorded by invoice-service's x402 path: its transfer
         * is published without its memo, so it is never attributed to an invoice (the payer chooses that
         * memo, and x402's clients write one).
         */
        Optional<List<String>> x402FeePayers();
    }

    /** Solana commitments the watcher accepts ({@code processed} can roll back: never). */
    enum Commitment {
        confirmed, finalized
    }
}
