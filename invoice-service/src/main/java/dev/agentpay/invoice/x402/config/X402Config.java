package dev.agentpay.invoice.x402.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

/**
 * Settings of the x402 pay-per-call endpoints. Prices live here once, in USDC atomic units (6
 * decimals); every 402 challenge and every payment check reads them from here.
 */
@ConfigMapping(prefix = "x402")
public interface X402Config {

    /** Prices of the paid capabilities. */
    Prices prices();

    /** The facilitator that verifies and settles payments. */
    Facilitator facilitator();

    /** The {@code exact} scheme on an EVM chain (EIP-3009 {@code transferWithAuthorization} of USDC). */
    Evm evm();

    /** The Solana rail. */
    Solana solana();

    /**
     * Public base URL of the gateway ({@code PUBLIC_BASE_URL}, e.g. {@code https://api.example.com}); the
     * {@code resource} of a challenge is this plus the request path. When absent the URL is rebuilt from
     * {@code X-Forwarded-Proto}/{@code X-Forwarded-Host} or the request's own authority.
     */
    Optional<String> publicBaseUrl();

    /** How long a signed payment may stay valid: the {@code maxTimeoutSeconds} of every requirement. */
    @WithDefault("120")
    int maxTimeoutSeconds();

    /** Invoices created through {@code POST /api/x402/invoice}. */
    Invoices invoices();

    /** The job that completes payments interrupted between the settlement and the invoice write. */
    Reconciler reconciler();

    /** One price per capability. */
    interface Prices {

        /** {@code POST /api/x402/invoice}: 0.01 USDC. */
        @WithDefault("10000")
        long invoice();

        /** {@code POST /api/x402/settle}: 0.005 USDC. */
        @WithDefault("5000")
        long settle();
    }

    /** Where the facilitator is and how hard to try it. */
    interface Facilitator {

        /** Base URL of the facilitator ({@code X402_FACILITATOR_URL}); without one every paid call is a 503. */
        Optional<String> url();

        /** Name of an authentication header sent to a hosted facilitator (e.g. {@code Authorization}). */
        Optional<String> authHeader();

        /** Value of that header; never logged. */
        Optional<String> authValue();

        /** Time limit of one {@code /verify} call. */
        @WithDefault("PT5S")
        Duration verifyTimeout();

        /**
         * Time limit of one {@code /settle} call: it waits for the transfer's receipt on chain, so it is
         * longer than a block time.
         */
        @WithDefault("PT30S")
        Duration settleTimeout();

        /** Extra attempts after a failed {@code /verify}, and after a {@code /settle} that never reached it. */
        @WithDefault("2")
        int retries();

        /** First back-off between attempts (doubles each time, with jitter). */
        @WithDefault("PT0.2S")
        Duration backoff();
    }

    /** The EVM rail. */
    interface Evm {

        /** Chain-table chain whose seller wallet and USDC are offered (its x402 network name must exist). */
        @WithDefault("base")
        String chain();

        /** x402 v1 network name of that chain. */
        @WithDefault("base")
        String network();

        /** Numeric chain id, for the x402 v2 network {@code eip155:<id>}. */
        @WithDefault("8453")
        long chainId();

        /** EIP-712 domain name of the USDC contract (Circle's USDC on Base: {@code USD Coin}). */
        @WithDefault("USD Coin")
        String tokenName();

        /** EIP-712 domain version of the USDC contract. */
        @WithDefault("2")
        String tokenVersion();
    }

    /** The Solana rail. */
    interface Solana {

        /** Offer the Solana rail in challenges (needs a Solana seller wallet in the chain table and a fee payer). */
        @WithDefault("true")
        boolean enabled();

        /** x402 v1 network name. */
        @WithDefault("solana")
        String network();

        /** x402 v2 network (CAIP-2 of Solana mainnet-beta). */
        @WithDefault("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")
        String caip2();

        /** The facilitator's fee payer ({@code extra.feePayer}); without it the rail is not offered. */
        Optional<String> feePayer();
    }

    /** Invoices sold through x402. */
    interface Invoices {

        /** Chain of the invoices created (their payment details): a chain-table value. */
        @WithDefault("base")
        String chain();

        /** Invoice amount when the body has none, in USDC. */
        @WithDefault("0.01")
        BigDecimal defaultAmount();

        /** Owner recorded on these invoices: they belong to no API partner. */
        @WithDefault("x402")
        String owner();
    }

    /** Completion of interrupted payments. */
    interface Reconciler {

        /** How often to look for payments to complete. */
        @WithDefault("PT15S")
        Duration interval();

        /** A payment settled but without its result for this long is completed by the job. */
        @WithDefault("PT10S")
        Duration grace();
    }
}
