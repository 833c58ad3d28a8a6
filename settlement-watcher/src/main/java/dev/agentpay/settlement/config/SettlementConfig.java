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

    /** Sweeping deposit addresses to the seller wallet. */
    Sweep sweep();

    /** The MandateEscrow operator (README, "Mandate escrow"). */
    Escrow escrow();

    /** The MandateEscrow operator: executes escrow-commands (release, freeze, resolve) on each chain's escrow. */
    interface Escrow {

        /**
         * The operator's private key (env {@code ESCROW_OPERATOR_PRIVATE_KEY}), the {@code operator} every chain's
         * MandateEscrow was deployed with. It pays gas; the contract pays only an escrow's two parties.
         */
        Optional<String> operatorPrivateKey();

        /** How often each chain's open commands are looked at (a new command also wakes the chain at once). */
        @WithDefault("PT1S")
        Duration interval();

        /** How long a sent command may stay unmined before it is broadcast again (the same signed transaction). */
        @WithDefault("PT30S")
        Duration rebroadcastAfter();

        /** Broadcasts of one signed command before it is re-signed with a fresh nonce (the contract refuses a double effect). */
        @WithDefault("5")
        int maxBroadcasts();

        /** How long a chain's command rounds may keep failing (an RPC down) before readiness says so (EscrowReadiness). */
        @WithDefault("PT30S")
        Duration stallAfter();
    }

    /** Sweeping deposit addresses to the seller wallet (see README "Sweeping"). */
    interface Sweep {

        /** Whether sweeps run (they also need a key and, per chain, a deposit factory). */
        @WithDefault("true")
        boolean enabled();

        /**
         * The sweeper's private key (env {@code SWEEPER_PRIVATE_KEY}): pays the gas of {@code sweep}. It
         * cannot move money anywhere but the factory's treasury, so it holds gas only.
         */
        java.util.Optional<String> privateKey();

        /** How often each chain's owed deposit addresses are swept. */
        @WithDefault("PT30S")
        Duration interval();

        /** Most deposit addresses per sweep transaction. */
        @WithDefault("50")
        int batchSize();

        /** How long a sent sweep may stay unmined before it is broadcast again (same signed transaction). */
        @WithDefault("PT2M")
        Duration rebroadcastAfter();

        /** Broadcasts of one sweep before it is marked FAILED (its addresses are swept again by a new one). */
        @WithDefault("5")
        int maxAttempts();
    }

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
