package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import dev.agentpay.helm.Chart.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anchoring on several chains (issue 31): one anchor-service Deployment per anchor chain, each with its own database,
 * Kafka consumer group, signer Secret and contract; every service learns the chain list (ANCHOR_CHAINS) and the
 * verifier (discovery-service) each chain's RPC URL (ANCHOR_RPC_URLS).
 */
class AnchorChainsTest {

    static final String BASE = """
            anchorChains:
              - name: base
                chainId: "8453"
                rpcSecret: {secret: agentpay-chain-rpc, key: base}
                contractAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3"
                explorerUrl: https://basescan.org
                confirmations: 3
                signerSecret: {secret: agentpay-anchor-signer-base, key: signer-key}
                nextSignerSecret: {secret: agentpay-anchor-signer-base, key: next-signer-key}
                database: anchor_base
            """;

    @TempDir
    Path tmp;

    Path valuesFile(String yaml) {
        try {
            Path f = Files.createTempFile(tmp, "values", ".yaml");
            Files.writeString(f, yaml);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode configOf(Manifests m, JsonNode deployment) {
        return m.one("ConfigMap", deployment.at("/spec/template/spec/containers/0/envFrom/0/configMapRef/name").asText())
                .path("data");
    }

    @Test
    void withoutExtraChainsThereIsOneAnchorDeploymentInItsHistoricalGroupAndEveryServiceKnowsTheChain() {
        for (Manifests m : List.of(Chart.renderDefault(), Chart.renderProduction())) {
            assertThat(m.ofKind("Deployment")).hasSize(6);
            JsonNode anchor = configOf(m, m.deploymentOf("anchor-service"));
            assertThat(anchor.path("ANCHOR_CONSUMER_GROUP").asText()).isEqualTo("anchor-service");
            assertThat(anchor.path("ANCHOR_CHAIN_ID").asText()).isEqualTo("84532");
            for (String service : Services.DATABASES.keySet()) {
                assertThat(configOf(m, m.deploymentOf(service)).path("ANCHOR_CHAINS").asText()).as(service).isEqualTo("84532");
            }
        }
        // no RPC URL configured: the verifier gets none (its own default applies)
        assertThat(Chart.renderDefault().deploymentOf("discovery-service").toString()).doesNotContain("ANCHOR_RPC_URL");
        assertThat(DeploymentsTest.envVar(Chart.renderProduction().deploymentOf("discovery-service"), "ANCHOR_RPC_URLS")
                .path("value").asText()).isEqualTo("84532=https://sepolia.base.org");
    }

    @Test
    void anExtraChainIsAFullAnchorDeploymentWithItsOwnGroupDatabaseSignerAndPdb() {
        Manifests m = Chart.render(List.of(valuesFile(BASE)), Map.of());
        assertThat(m.ofKind("Deployment")).hasSize(7);
        JsonNode d = m.one("Deployment", "agentpay-anchor-service-base");
        assertThat(Manifests.component(d)).isEqualTo("anchor-service-base");
        assertThat(d.at("/metadata/labels/agentpay.dev~1anchor-chain-id").asText()).isEqualTo("8453");
        JsonNode primary = m.deploymentOf("anchor-service");

        // the same program, pod shape and drain as the primary anchor-service
        JsonNode c = d.at("/spec/template/spec/containers/0");
        JsonNode pc = primary.at("/spec/template/spec/containers/0");
        assertThat(c.path("name").asText()).isEqualTo("anchor-service");
        assertThat(c.path("image").asText()).isEqualTo("ghcr.io/agentpay/anchor-service:0.1.0");
        for (String same : List.of("/startupProbe", "/livenessProbe", "/readinessProbe", "/lifecycle", "/securityContext",
                "/resources", "/ports")) {
            assertThat(c.at(same)).as(same).isEqualTo(pc.at(same));
        }
        assertThat(d.at("/spec/template/spec/securityContext")).isEqualTo(primary.at("/spec/template/spec/securityContext"));
        assertThat(d.at("/spec/replicas").asInt()).isEqualTo(2);
        assertThat(d.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt(-1)).isZero();
        assertThat(m.ofKind("HorizontalPodAutoscaler"))
                .noneMatch(h -> h.at("/spec/scaleTargetRef/name").asText().startsWith("agentpay-anchor-service"));

        // its own selector: the primary's selector does not pick its pods, nor the other way round
        JsonNode pods = d.at("/spec/template/metadata/labels");
        assertThat(DeploymentsTest.selects(d.at("/spec/selector/matchLabels"), pods)).isTrue();
        assertThat(DeploymentsTest.selects(primary.at("/spec/selector/matchLabels"), pods)).isFalse();
        assertThat(DeploymentsTest.selects(d.at("/spec/selector/matchLabels"), primary.at("/spec/template/metadata/labels")))
                .isFalse();
        List<JsonNode> pdbs = m.ofKind("PodDisruptionBudget").stream()
                .filter(p -> DeploymentsTest.selects(p.at("/spec/selector/matchLabels"), pods)).toList();
        assertThat(pdbs).hasSize(1);
        assertThat(pdbs.get(0).at("/metadata/name").asText()).isEqualTo("agentpay-anchor-service-base");
        JsonNode svc = m.one("Service", "agentpay-anchor-service-base");
        assertThat(DeploymentsTest.selects(svc.at("/spec/selector"), pods)).isTrue();

        // this chain's settings; the primary's chain settings are not inherited
        JsonNode data = configOf(m, d);
        assertThat(data.path("ANCHOR_CHAIN_ID").asText()).isEqualTo("8453");
        assertThat(data.path("ANCHOR_CONSUMER_GROUP").asText()).isEqualTo("anchor-service-8453");
        assertThat(data.path("ANCHOR_CONTRACT_ADDRESS").asText()).isEqualTo("0x5FbDB2315678afecb367f032d93F642f64180aa3");
        assertThat(data.path("ANCHOR_EXPLORER_URL").asText()).isEqualTo("https://basescan.org");
        assertThat(data.path("ANCHOR_CONFIRMATIONS").asText()).isEqualTo("3");
        assertThat(data.path("DB_NAME").asText()).isEqualTo("anchor_base");
        assertThat(data.has("ANCHOR_RPC_URL")).as("the RPC URL comes from its Secret").isFalse();
        JsonNode rpc = DeploymentsTest.envVar(d, "ANCHOR_RPC_URL");
        assertThat(rpc.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-chain-rpc");
        assertThat(rpc.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("base");
        JsonNode signer = DeploymentsTest.envVar(d, "ANCHOR_SIGNER_KEY");
        assertThat(signer.has("value")).isFalse();
        assertThat(signer.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-anchor-signer-base");
        assertThat(signer.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("signer-key");
        JsonNode next = DeploymentsTest.envVar(d, "ANCHOR_NEXT_SIGNER_KEY");
        assertThat(next.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-anchor-signer-base");
        assertThat(next.at("/valueFrom/secretKeyRef/optional").asBoolean()).isTrue();
        for (String var : List.of("DB_USER", "DB_PASSWORD")) {
            assertThat(DeploymentsTest.envVar(d, var).at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-anchor-base-db");
        }

        // the primary is untouched
        JsonNode p = configOf(m, primary);
        assertThat(p.path("ANCHOR_CHAIN_ID").asText()).isEqualTo("84532");
        assertThat(p.path("ANCHOR_CONSUMER_GROUP").asText()).isEqualTo("anchor-service");
        assertThat(p.path("DB_NAME").asText()).isEqualTo("anchor");
        assertThat(DeploymentsTest.envVar(primary, "ANCHOR_SIGNER_KEY").at("/valueFrom/secretKeyRef/name").asText())
                .isEqualTo("agentpay-anchor-signer");

        // every service knows both chains, primary first
        for (JsonNode dep : m.ofKind("Deployment")) {
            assertThat(configOf(m, dep).path("ANCHOR_CHAINS").asText()).as(dep.at("/metadata/name").asText())
                    .isEqualTo("84532,8453");
        }
    }

    @Test
    void theVerifierGetsEveryChainsRpcUrlWithSecretUrlsExpandedInThePodOnly() {
        Manifests m = Chart.render(List.of(Chart.productionValues(), valuesFile(BASE)), Map.of());
        JsonNode discovery = m.deploymentOf("discovery-service");
        List<String> names = new ArrayList<>();
        discovery.at("/spec/template/spec/containers/0/env").forEach(e -> names.add(e.path("name").asText()));
        // the referenced variable is defined before the one that expands it
        assertThat(names.indexOf("ANCHOR_RPC_URL_8453")).isGreaterThanOrEqualTo(0).isLessThan(names.indexOf("ANCHOR_RPC_URLS"));
        JsonNode ref = DeploymentsTest.envVar(discovery, "ANCHOR_RPC_URL_8453");
        assertThat(ref.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-chain-rpc");
        assertThat(ref.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("base");
        assertThat(DeploymentsTest.envVar(discovery, "ANCHOR_RPC_URLS").path("value").asText())
                .isEqualTo("84532=https://sepolia.base.org,8453=$(ANCHOR_RPC_URL_8453)");
        for (String other : List.of("mandate-service", "invoice-service", "webhook-dispatcher")) {
            assertThat(m.deploymentOf(other).toString()).as(other).doesNotContain("ANCHOR_RPC_URLS");
        }
        // a plain rpcUrl is written as is
        Manifests plain = Chart.render(List.of(valuesFile(BASE.replace("rpcSecret: {secret: agentpay-chain-rpc, key: base}",
                "rpcUrl: https://mainnet.base.org"))), Map.of());
        assertThat(DeploymentsTest.envVar(plain.deploymentOf("discovery-service"), "ANCHOR_RPC_URLS").path("value").asText())
                .isEqualTo("8453=https://mainnet.base.org");
        assertThat(configOf(plain, plain.one("Deployment", "agentpay-anchor-service-base")).path("ANCHOR_RPC_URL").asText())
                .isEqualTo("https://mainnet.base.org");
    }

    @Test
    void withCloudNativePgTheChainsDatabaseAndRoleAreDeclared() {
        Manifests m = Chart.render(List.of(Chart.productionValues(), valuesFile(BASE)), Map.of());
        JsonNode cluster = m.one("Cluster", "agentpay-pg");
        JsonNode role = null;
        for (JsonNode r : cluster.at("/spec/managed/roles")) {
            if ("anchor_base".equals(r.path("name").asText())) {
                role = r;
            }
        }
        assertThat(role).isNotNull();
        assertThat(role.at("/passwordSecret/name").asText()).isEqualTo("agentpay-anchor-base-db");
        JsonNode db = m.one("Database", "agentpay-pg-anchor-base");
        assertThat(db.at("/spec/name").asText()).isEqualTo("anchor_base");
        assertThat(db.at("/spec/owner").asText()).isEqualTo("anchor_base");
        assertThat(db.at("/metadata/annotations/helm.sh~1resource-policy").asText()).isEqualTo("keep");
        assertThat(m.one("Database", "agentpay-pg-anchor").at("/spec/name").asText()).isEqualTo("anchor");
        // scraped like every other service
        JsonNode monitor = m.ofKind("ServiceMonitor").get(0);
        assertThat(DeploymentsTest.selects(monitor.at("/spec/selector/matchLabels"),
                m.one("Service", "agentpay-anchor-service-base").at("/metadata/labels"))).isTrue();
        assertThat(m.one("Deployment", "agentpay-anchor-service-base").at("/spec/replicas").asInt()).isEqualTo(2);
    }

    @Test
    void theChartRefusesAnAmbiguousOrIncompleteChain() {
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE.replace("\"8453\"", "\"84532\""))), Map.of()))
                .hasMessageContaining("already anchored");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE.replace("database: anchor_base", "database: anchor"))), Map.of()))
                .hasMessageContaining("already the database of services.anchor-service");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE.replace(
                "    signerSecret: {secret: agentpay-anchor-signer-base, key: signer-key}\n", ""))), Map.of()))
                .hasMessageContaining("signerSecret");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE + "    rpcUrl: https://mainnet.base.org\n")), Map.of()))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE + BASE.substring(BASE.indexOf("  - name")))), Map.of()))
                .hasMessageContaining("distinct");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE.replace("name: base", "name: Base_Main"))), Map.of()))
                .hasMessageContaining("DNS label");
        assertThatThrownBy(() -> Chart.render(List.of(valuesFile(BASE + "    env:\n      ANCHOR_SIGNER_KEY: \"0xdead\"\n")), Map.of()))
                .hasMessageContaining("anchorChains[base].env.ANCHOR_SIGNER_KEY looks like a secret");
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.mandate-service.env.ANCHOR_CHAINS", "1,2")))
                .hasMessageContaining("ANCHOR_CHAINS is set by the chart");
    }

    @Test
    void productionValuesWithAnExtraChainLintCleanly() throws IOException {
        Path copy = Chart.copy(tmp.resolve("agentpay"));
        JsonNode merged = Chart.mergeValues(Chart.mergeValues(Chart.readYaml(copy.resolve("values.yaml")),
                Chart.readYaml(copy.resolve("values-production.yaml"))), Chart.YAML.readTree(BASE));
        Chart.writeYaml(copy.resolve("values.yaml"), merged);
        LintResult result = Chart.lint(copy);
        assertThat(result.isFailed()).as("lint: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(msg -> msg.contains("[ERROR]") || msg.contains("[WARNING]"));
    }
}
