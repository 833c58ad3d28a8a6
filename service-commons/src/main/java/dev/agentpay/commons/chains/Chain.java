package dev.agentpay.commons.chains;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The settlement chains of the spec's chain table with their fixed facts and the production defaults
 * that {@link ChainsConfig} may override. Confirmation defaults are chosen to land in the spec's
 * "typical settlement detection" window of each chain while staying clear of its usual reorg depth.
 */
public enum Chain {

    /** Base: 2 s blocks; 6 confirmations is about 12 s. */
    BASE("base", Kind.EVM, new Defaults("8453", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6, Duration.ofSeconds(2))),
    /** SKALE Base: instant finality, so one confirmation; the USDC is the operator's bridged token. */
    SKALE("skale", Kind.EVM, new Defaults("1187947933", "0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20", 1, Duration.ofSeconds(2))),
    /** Polygon PoS: 2 s blocks; 12 confirmations is about 24 s. */
    POLYGON("polygon", Kind.EVM, new Defaults("137", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 12, Duration.ofSeconds(2))),
    /** Arbitrum One: 0.25 s blocks; 40 confirmations is about 10 s. */
    ARBITRUM("arbitrum", Kind.EVM, new Defaults("42161", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 40, Duration.ofSeconds(1))),
    /** Solana mainnet-beta: transactions are read at {@code finalized} commitment, so no extra depth. */
    SOLANA("solana", Kind.SOLANA, new Defaults("mainnet-beta", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 1, Duration.ofSeconds(5)));

    /** How transfers on the chain are observed. */
    public enum Kind {
        EVM, SOLANA
    }

    /**
     * The production settings of a chain, each of which {@link ChainsConfig} may override ({@link ChainTable}
     * resolves them): its network id, its USDC contract (EVM) or mint (Solana), the confirmations a transfer
     * needs and how often the chain is polled.
     */
    public record Defaults(String networkId, String usdcAddress, int confirmations, Duration pollInterval) {
    }

    private final String value;
    private final Kind kind;
    private final Defaults defaults;

    Chain(String value, Kind kind, Defaults defaults) {
        this.value = value;
        this.kind = kind;
        this.defaults = defaults;
    }

    /** The API value of the invoice {@code chain} field. */
    public String value() {
        return value;
    }

    public Kind kind() {
        return kind;
    }

    public Defaults defaults() {
        return defaults;
    }

    /** {@code evm-detector} or {@code solana-detector}: the invoice's {@code settlementSource}. */
    public String settlementSource() {
        return kind == Kind.EVM ? "evm-detector" : "solana-detector";
    }

    /** The chain for an API value, ignoring case and surrounding blanks. */
    public static Optional<Chain> of(String value) {
        if (value == null) {
            return Optional.empty();
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(c -> c.value.equals(v)).findFirst();
    }
}
