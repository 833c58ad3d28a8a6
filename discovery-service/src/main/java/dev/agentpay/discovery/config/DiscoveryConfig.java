package dev.agentpay.discovery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Settings of discovery-service. */
@ConfigMapping(prefix = "discovery")
public interface DiscoveryConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("discovery-service")
    String serviceName();

    /**
     * Public base URL of the platform (the gateway) that absolute URLs in the documents start with
     * ({@code PUBLIC_BASE_URL}); no trailing slash.
     */
    @WithDefault("http://127.0.0.1:8080")
    String publicBaseUrl();

    /**
     * Where partners ask the operator for an API key: the manifest's {@code auth.keys_from}
     * ({@code SUPPORT_EMAIL}). Must be a plain e-mail address; the service refuses to start on anything
     * else (a template placeholder such as {@code <SUPPORT_EMAIL>} included), see {@code SupportEmail}.
     */
    @WithDefault("support@agentpay.localhost")
    String supportEmail();

    /** Base URL of mandate-service as this service reaches it ({@code MANDATE_SERVICE_URL}). */
    @WithDefault("http://127.0.0.1:8081")
    String mandateServiceUrl();

    /** Base URL of invoice-service as this service reaches it ({@code INVOICE_SERVICE_URL}). */
    @WithDefault("http://127.0.0.1:8082")
    String invoiceServiceUrl();

    /** Time allowed for one call to another service before the tool reports it unavailable. */
    @WithDefault("10s")
    Duration upstreamTimeout();

    /** Cron of the nightly trust-signal rebuild ({@code TRUST_SIGNALS_CRON}); the rebuild also runs at start. */
    @WithDefault("0 0 3 * * ?")
    String trustSignalsCron();

    /** Announced partnerships listed in the trust_signals section. */
    Optional<List<String>> partnerships();

    /** The MCP endpoint. */
    Mcp mcp();

    /**
     * JSON-RPC URL of an anchor chain ({@code ANCHOR_RPC_URL}), where {@code service_verify_mandate} looks up the
     * receipts of the anchors on the chain it reports ({@code eth_chainId}), when {@link #anchorRpcUrls()} is unset.
     * Neither set: that tool reports the anchors as not checked.
     */
    Optional<String> anchorRpcUrl();

    /**
     * One JSON-RPC URL per anchor chain ({@code ANCHOR_RPC_URLS}): comma-separated {@code chainId=url} pairs, e.g.
     * {@code 84532=http://127.0.0.1:8545,8453=http://127.0.0.1:8546}; each anchor of a proof is looked up on the
     * RPC of its own chain. When set, {@link #anchorRpcUrl()} is not used. Malformed: the service refuses to start.
     */
    Optional<String> anchorRpcUrls();

    /** Settings of the MCP endpoint. */
    interface Mcp {
        /**
         * Origins (scheme://host[:port]) browsers may call the MCP endpoint from, besides the public
         * base URL's origin and loopback origins. A request with any other {@code Origin} is refused.
         */
        Optional<List<String>> allowedOrigins();

        /**
         * Host names (without port) the endpoint answers for, besides the public base URL's host and
         * loopback names; guards against DNS rebinding.
         */
        Optional<List<String>> allowedHosts();
    }
}
