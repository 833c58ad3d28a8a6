package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.helm.Chart.Manifests;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The mandate escrow on real networks (issue 30): each EVM chain's MandateEscrow address reaches settlement-watcher
 * (events, operator commands) and mandate-service (funding instructions); the operator key reaches settlement-watcher
 * alone, from a Secret.
 */
class EscrowValuesTest {

    @Test
    void productionGivesEveryEvmChainItsEscrowAndTheOperatorKeyToTheWatcherOnly() {
        Manifests m = Chart.renderProduction();
        for (String service : List.of("settlement-watcher", "mandate-service")) {
            JsonNode data = m.one("ConfigMap", "agentpay-" + service).path("data");
            for (String chain : List.of("BASE", "POLYGON", "ARBITRUM", "SKALE")) {
                assertThat(data.path("CHAIN_" + chain + "_ESCROW_ADDRESS").asText()).as(service + " " + chain).isEqualTo("REPLACE_ME");
            }
        }
        JsonNode key = DeploymentsTest.envVar(m.deploymentOf("settlement-watcher"), "ESCROW_OPERATOR_PRIVATE_KEY");
        assertThat(key.has("value")).isFalse();
        assertThat(key.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-escrow-operator");
        assertThat(key.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("private-key");
        for (String service : List.of("mandate-service", "invoice-service", "anchor-service")) {
            assertThat(m.deploymentOf(service).toString()).as(service).doesNotContain("ESCROW_OPERATOR_PRIVATE_KEY");
        }
    }

    @Test
    void anOperatorSetsAChainsEscrowAddressForBothServices() {
        String address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
        Manifests m = Chart.render(List.of(), Map.of("services.settlement-watcher.env.CHAIN_BASE_ESCROW_ADDRESS", address,
                "services.mandate-service.env.CHAIN_BASE_ESCROW_ADDRESS", address));
        assertThat(m.one("ConfigMap", "agentpay-settlement-watcher").at("/data/CHAIN_BASE_ESCROW_ADDRESS").asText()).isEqualTo(address);
        assertThat(m.one("ConfigMap", "agentpay-mandate-service").at("/data/CHAIN_BASE_ESCROW_ADDRESS").asText()).isEqualTo(address);
        // unset: escrow is off on that chain, and the service falls back to its own (empty) default
        assertThat(m.one("ConfigMap", "agentpay-settlement-watcher").at("/data/CHAIN_POLYGON_ESCROW_ADDRESS").isMissingNode()).isTrue();
    }
}
