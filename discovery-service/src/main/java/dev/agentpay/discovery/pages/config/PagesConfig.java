package dev.agentpay.discovery.pages.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** Settings of the pages for people: the hosted payment page ({@code /checkout}) and the partner console ({@code /console}). */
@ConfigMapping(prefix = "discovery.pages")
public interface PagesConfig {

    /**
     * Transaction links per chain: the URL a transaction hash is appended to ({@code base} →
     * {@code https://basescan.org/tx/}); a chain without one shows the hash as text.
     */
    Map<String, String> explorerTxUrl();

    /** How often the payment page asks for the invoice's status while it is open. */
    @WithDefault("500ms")
    Duration statusPollInterval();

    /** Base URL of webhook-dispatcher as this service reaches it ({@code WEBHOOK_DISPATCHER_URL}). */
    @WithDefault("http://127.0.0.1:8086")
    String webhookDispatcherUrl();

    /** How long a console session lives without use. */
    @WithDefault("30m")
    Duration consoleSessionIdle();
}
