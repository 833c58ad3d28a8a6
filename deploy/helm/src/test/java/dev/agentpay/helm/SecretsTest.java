package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.helm.Chart.Manifests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** No secret value is ever literal: the chart renders no Secret and every secret variable is a secretKeyRef. */
class SecretsTest {

    static Stream<Arguments> renderings() {
        return Stream.of(Arguments.of("default", Chart.renderDefault()),
                Arguments.of("production", Chart.renderProduction()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void noSecretObjectWithDataIsRendered(String name, Manifests m) {
        assertThat(m.ofKind("Secret")).isEmpty();
        for (JsonNode doc : m.docs()) {
            assertThat(doc.has("stringData")).as(doc.path("kind").asText()).isFalse();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void secretVariablesComeFromSecretKeyRefs(String name, Manifests m) {
        for (String service : Services.DATABASES.keySet()) {
            JsonNode d = m.deploymentOf(service);
            List<String> required = new ArrayList<>(Services.SECRET_ENV.get("*"));
            required.addAll(Services.SECRET_ENV.getOrDefault(service, List.of()));
            for (String var : required) {
                JsonNode e = DeploymentsTest.envVar(d, var);
                assertThat(e.has("value")).as(service + " " + var + " literal").isFalse();
                assertThat(e.at("/valueFrom/secretKeyRef/name").asText()).as(service + " " + var).isNotBlank();
                assertThat(e.at("/valueFrom/secretKeyRef/key").asText()).as(service + " " + var).isNotBlank();
            }
            for (JsonNode c : d.at("/spec/template/spec/containers")) {
                for (JsonNode e : c.path("env")) {
                    String var = e.path("name").asText();
                    if (var.matches(Services.SECRET_NAME)) {
                        assertThat(e.has("value")).as(service + " " + var + " literal").isFalse();
                        assertThat(e.at("/valueFrom/secretKeyRef/name").asText()).as(service + " " + var).isNotBlank();
                    }
                }
            }
        }
        for (JsonNode cm : m.ofKind("ConfigMap")) {
            cm.path("data").fieldNames().forEachRemaining(k -> assertThat(k)
                    .as("ConfigMap " + cm.at("/metadata/name").asText()).doesNotMatch(Services.SECRET_NAME));
            for (List<String> names : Services.SECRET_ENV.values()) {
                names.forEach(n -> assertThat(cm.path("data").has(n)).as(n).isFalse());
            }
        }
    }

    @Test
    void productionKafkaCredentialsAndRpcUrlsAreSecretReferences() {
        Manifests m = Chart.renderProduction();
        for (String service : Services.DATABASES.keySet()) {
            JsonNode jaas = DeploymentsTest.envVar(m.deploymentOf(service), "KAFKA_SASL_JAAS_CONFIG");
            assertThat(jaas.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("sasl.jaas.config");
        }
        JsonNode rpc = DeploymentsTest.envVar(m.deploymentOf("settlement-watcher"), "CHAIN_BASE_RPC_URL");
        assertThat(rpc.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("agentpay-chain-rpc");
        JsonNode mandate = m.deploymentOf("mandate-service");
        assertThat(mandate.at("/spec/template/spec/volumes").findValues("secretName").stream().map(JsonNode::asText))
                .contains("agentpay-partners-bootstrap");
    }

    @Test
    void theChartRefusesLiteralSecrets() {
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.anchor-service.env.ANCHOR_SIGNER_KEY", "0xdeadbeef")))
                .hasMessageContaining("looks like a secret");
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("global.env.DB_PASSWORD", "hunter2")))
                .hasMessageContaining("looks like a secret");
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.settlement-watcher.secretEnv.SOLANA_RPC_URL", "https://rpc.example/key")))
                .hasMessageContaining("never a literal value");
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.invoice-service.env.X402_FACILITATOR_URL", "https://f",
                "services.invoice-service.secretEnv.X402_FACILITATOR_URL.secret", "s",
                "services.invoice-service.secretEnv.X402_FACILITATOR_URL.key", "k")))
                .hasMessageContaining("both in env and secretEnv");
    }
}
