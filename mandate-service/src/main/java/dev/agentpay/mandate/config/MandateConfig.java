package dev.agentpay.mandate.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Settings of mandate-service. */
@ConfigMapping(prefix = "mandate")
public interface MandateConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("mandate-service")
    String serviceName();

    /** The {@code proto_version} label written on every new mandate and receipt. */
    @WithDefault("0.1")
    String protoVersion();

    /** Furthest in the future a mandate's {@code expiry} may lie. */
    @WithDefault("P3650D")
    Duration maxExpiryHorizon();

    /**
     * A JSON file of partners imported at start-up ({@code PARTNERS_BOOTSTRAP_FILE}; the Helm chart mounts
     * it from a Secret). Unset: nothing is imported. Format and rules: README, "Partner bootstrap file".
     */
    Optional<String> partnersBootstrapFile();

    /** Expiry job settings. */
    Expiry expiry();

    /** The EIP-712 domain wallet parties sign (README, "Verifiable mandates"). */
    Eip712 eip712();

    /**
     * The EIP-712 domain of new wallet mandates: the anchor network's chain id and the MandateAnchor
     * contract ({@code ANCHOR_CHAIN_ID}, {@code ANCHOR_CONTRACT_ADDRESS}, the same values anchor-service uses).
     * Without a contract, creating a mandate with a wallet party is refused (503 {@code wallet_signing_unavailable}).
     */
    interface Eip712 {

        @WithDefault("84532")
        long chainId();

        Optional<String> verifyingContract();
    }

    /**
     * The chains every transition is anchored on, primary first ({@code ANCHOR_CHAINS}, e.g. {@code 84532,8453}: one
     * anchor-service deployment per chain). A transition is {@code anchored} once each has its receipt,
     * {@code partially_anchored} before. Unset: {@code eip712.chain-id} alone.
     */
    java.util.Optional<java.util.List<Long>> anchorChains();

    /** Idempotency-Key settings. */
    Idempotency idempotency();

    /** The scheduled job that moves live mandates past their {@code expires_at} to {@code expired}. */
    interface Expiry {

        /**
         * How often the job runs (a Quarkus scheduler period such as {@code 5s}); it is read by the
         * {@code @Scheduled} expression {@code mandate.expiry.interval}.
         */
        @WithDefault("5s")
        String interval();

        /** Mandates expired per transaction; the job loops until none is left, so it catches up after downtime. */
        @WithDefault("200")
        int batchSize();
    }

    /** Stored responses for repeated POSTs. */
    interface Idempotency {

        /** How long a stored response is replayed for the same key. */
        @WithDefault("PT24H")
        Duration ttl();

        /** Longest accepted {@code Idempotency-Key} header. */
        @WithDefault("255")
        int maxKeyLength();
    }
}
