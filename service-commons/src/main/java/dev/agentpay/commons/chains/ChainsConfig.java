package dev.agentpay.commons.chains;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The chain table as operators configure it (env {@code CHAIN_<NAME>_RPC_URL},
 * {@code CHAIN_<NAME>_USDC_ADDRESS}, {@code CHAIN_<NAME>_PAYMENT_ADDRESS}, {@code SOLANA_RPC_URL},
 * {@code SOLANA_PAYMENT_ADDRESS}, {@code SOLANA_USDC_MINT} are mapped onto it by the services'
 * application.properties). Everything unset falls back to the defaults of {@link Chain}; read it
 * through {@link ChainTable}.
 */
@ConfigMapping(prefix = "chains")
public interface ChainsConfig {

    /** Base (network id 8453). */
    Settings base();

    /** SKALE Base (network id 1187947933). */
    Settings skale();

    /** Polygon PoS (network id 137). */
    Settings polygon();

    /** Arbitrum One (network id 42161). */
    Settings arbitrum();

    /** Solana (mainnet-beta). */
    Settings solana();

    /** One chain's settings. */
    interface Settings {

        /** Switches the chain off for new invoices and for the watcher without removing its settings. */
        @WithDefault("true")
        boolean enabled();

        /** Network id shown in invoices; defaults to the chain's real id (base 8453, ..., solana mainnet-beta). */
        Optional<String> networkId();

        /** USDC contract (EVM) or mint (Solana); defaults to the canonical one of the chain. */
        Optional<String> usdcAddress();

        /**
         * The seller wallet every invoice of the chain is paid to (EVM address; for Solana the owner
         * wallet, not its token account). No default: a chain without one takes no invoices.
         */
        Optional<String> paymentAddress();

        /**
         * EVM only: the {@code DepositFactory} contract (settlement-watcher/src/main/solidity) whose CREATE2
         * addresses are the invoices' own payment addresses, its treasury being {@link #paymentAddress()}.
         * No default: an EVM chain without one takes no invoices.
         */
        Optional<String> depositFactoryAddress();

        /**
         * EVM only: the {@code MandateEscrow} contract (settlement-watcher/src/main/solidity) holding mandate budgets
         * between their two parties (issue 30). No default: a chain without one offers no escrow.
         */
        Optional<String> escrowAddress();

        /**
         * EVM only: the EIP-712 domain name and version of the chain's USDC (what an EIP-3009 authorization is signed
         * in); default the canonical token's: "USD Coin"/"2", on SKALE "Bridged USDC (SKALE Bridge)"/"2".
         */
        Optional<String> usdcEip712Name();

        Optional<String> usdcEip712Version();

        /** JSON-RPC endpoint the watcher reads; no default: a chain without one is not watched. */
        Optional<String> rpcUrl();

        /**
         * Blocks, counting the transfer's own block, before a transfer is published (EVM); see
         * {@link Chain} for the per-chain defaults. Solana reads at finalized commitment and ignores it.
         */
        OptionalInt confirmations();

        /** How often the watcher asks the chain for new blocks or signatures; per-chain default in {@link Chain}. */
        Optional<Duration> pollInterval();

        /** Largest {@code eth_getLogs} block range asked for at once (halved on provider errors). */
        @WithDefault("2000")
        int maxBlockRange();
    }
}
