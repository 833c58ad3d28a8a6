package dev.agentpay.helm;

import java.util.List;
import java.util.Map;

/** What the chart must know of the six services. */
final class Services {

    /** Service -> the database it owns. */
    static final Map<String, String> DATABASES = Map.of(
            "mandate-service", "mandate",
            "invoice-service", "invoice",
            "settlement-watcher", "watcher",
            "anchor-service", "anchor",
            "discovery-service", "discovery",
            "webhook-dispatcher", "webhook");

    /** Services whose work is leased to one pod at a time (fenced in the database); several pods, no HPA. */
    static final List<String> LEASED = List.of("anchor-service", "settlement-watcher");

    static final List<String> STATELESS = List.of(
            "mandate-service", "invoice-service", "discovery-service", "webhook-dispatcher");

    /** Variables that carry a secret, per service ("*" = every service); they must come from secretKeyRef. */
    static final Map<String, List<String>> SECRET_ENV = Map.of(
            "*", List.of("DB_PASSWORD", "ADMIN_API_KEY"),
            "anchor-service", List.of("ANCHOR_SIGNER_KEY", "ANCHOR_NEXT_SIGNER_KEY"),
            "settlement-watcher", List.of("SOLANA_RPC_URL"),
            "invoice-service", List.of("X402_FACILITATOR_AUTH_HEADER"));

    /** Names that look like secrets wherever they appear. */
    static final String SECRET_NAME = ".*(PASSWORD|SECRET|TOKEN|PRIVATE|_KEY$|AUTH|JAAS).*";

    private Services() {
    }
}
