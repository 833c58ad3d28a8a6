package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.helm.Chart.Manifests;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Deployments, their probes, resources and configuration, scaling objects, several pods of every service and their drain. */
class DeploymentsTest {

    static Stream<Arguments> renderings() {
        return Stream.of(Arguments.of("default", Chart.renderDefault()),
                Arguments.of("production", Chart.renderProduction()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void everyServiceHasOneDeploymentWithProbesAndResources(String name, Manifests m) {
        assertThat(m.ofKind("Deployment")).hasSize(6);
        for (String service : Services.DATABASES.keySet()) {
            JsonNode d = m.deploymentOf(service);
            JsonNode containers = d.at("/spec/template/spec/containers");
            assertThat(containers.size()).as(service).isGreaterThan(0);
            for (JsonNode c : containers) {
                String what = name + "/" + service + "/" + c.path("name").asText();
                assertThat(c.at("/livenessProbe/httpGet/path").asText()).as(what).isEqualTo("/q/health/live");
                assertThat(c.at("/readinessProbe/httpGet/path").asText()).as(what).isEqualTo("/q/health/ready");
                assertThat(c.at("/startupProbe/httpGet/path").asText()).as(what).isEqualTo("/q/health/started");
                for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                    assertThat(portNumber(c, c.path(probe).at("/httpGet/port").asText())).as(what + " " + probe)
                            .isEqualTo(8080);
                }
                for (String r : List.of("/resources/requests/cpu", "/resources/requests/memory",
                        "/resources/limits/cpu", "/resources/limits/memory")) {
                    assertThat(c.at(r).asText()).as(what + r).isNotBlank();
                }
                assertThat(c.path("image").asText()).as(what).contains("/" + service + ":");
                assertThat(c.at("/securityContext/allowPrivilegeEscalation").asBoolean(true)).as(what).isFalse();
            }
            assertThat(d.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void configMapsCarryTheServiceSettings(String name, Manifests m) {
        for (Map.Entry<String, String> e : Services.DATABASES.entrySet()) {
            JsonNode d = m.deploymentOf(e.getKey());
            String cmName = d.at("/spec/template/spec/containers/0/envFrom/0/configMapRef/name").asText();
            JsonNode data = m.one("ConfigMap", cmName).path("data");
            assertThat(data.path("DB_NAME").asText()).as(e.getKey()).isEqualTo(e.getValue());
            assertThat(data.path("HTTP_PORT").asText()).isEqualTo("8080");
            assertThat(data.path("DB_HOST").asText()).isNotBlank();
            assertThat(data.path("DB_PORT").asText()).isEqualTo("5432");
            assertThat(data.path("KAFKA_BOOTSTRAP_SERVERS").asText()).endsWith(":9092");
        }
        assertThat(m.one("ConfigMap", "agentpay-anchor-service").at("/data/ANCHOR_CHAIN_ID").asText())
                .isEqualTo("84532");
    }

    @Test
    void productionPublishesItsOwnSupportAddress() {
        assertThat(Chart.renderProduction().one("ConfigMap", "agentpay-discovery-service").at("/data/SUPPORT_EMAIL")
                .asText()).isEqualTo("partners@agentpay.example.com");
        // the default rendering leaves it to the service's own (local) default rather than an empty value
        assertThat(Chart.renderDefault().one("ConfigMap", "agentpay-discovery-service").at("/data/SUPPORT_EMAIL")
                .isMissingNode()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void everyServiceRunsSeveralPodsRollsWithoutLosingOneAndDrains(String name, Manifests m) {
        for (String service : Services.DATABASES.keySet()) {
            JsonNode d = m.deploymentOf(service);
            String deployment = d.at("/metadata/name").asText();
            List<JsonNode> hpas = m.ofKind("HorizontalPodAutoscaler").stream()
                    .filter(h -> deployment.equals(h.at("/spec/scaleTargetRef/name").asText())).toList();
            int pods = hpas.isEmpty() ? d.at("/spec/replicas").asInt(-1) : hpas.get(0).at("/spec/minReplicas").asInt();
            assertThat(pods).as(service + " pods").isGreaterThanOrEqualTo(2);
            assertThat(d.at("/spec/strategy/type").asText()).as(service).isEqualTo("RollingUpdate");
            assertThat(d.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt(-1)).as(service).isZero();
            assertThat(d.at("/metadata/annotations/agentpay.dev~1singleton").isMissingNode()).as(service).isTrue();
            JsonNode podLabels = d.at("/spec/template/metadata/labels");
            List<JsonNode> pdbs = m.ofKind("PodDisruptionBudget").stream()
                    .filter(p -> selects(p.at("/spec/selector/matchLabels"), podLabels)).toList();
            assertThat(pdbs).as(service + " PDB").hasSize(1);
            assertThat(pdbs.get(0).at("/spec/maxUnavailable").asInt()).isEqualTo(1);
            JsonNode spread = d.at("/spec/template/spec/topologySpreadConstraints/0");
            assertThat(spread.path("topologyKey").asText()).as(service).isEqualTo("kubernetes.io/hostname");
            assertThat(selects(spread.at("/labelSelector/matchLabels"), podLabels)).isTrue();
            JsonNode pod = d.at("/spec/template/spec");
            JsonNode c = pod.at("/containers/0");
            // preStop covers the endpoint removal before SIGTERM; the whole drain fits in the grace period
            JsonNode preStop = c.at("/lifecycle/preStop/exec/command");
            assertThat(preStop.get(0).asText()).as(service).isEqualTo("sleep");
            int sleep = Integer.parseInt(preStop.get(1).asText());
            assertThat(sleep).isBetween(1, 30);
            assertThat(pod.path("terminationGracePeriodSeconds").asInt()).isGreaterThanOrEqualTo(sleep + 2 + 20);
            // draining (readiness DOWN) is not dead (liveness): two different checks
            assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/q/health/ready");
            assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/q/health/live");
        }
        for (String service : Services.LEASED) {
            String deployment = m.deploymentOf(service).at("/metadata/name").asText();
            assertThat(m.ofKind("HorizontalPodAutoscaler")).as(service + " is not autoscaled")
                    .noneMatch(h -> deployment.equals(h.at("/spec/scaleTargetRef/name").asText()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void statelessServicesHaveAnHpaAndAPdb(String name, Manifests m) {
        for (String service : Services.STATELESS) {
            JsonNode d = m.deploymentOf(service);
            String deployment = d.at("/metadata/name").asText();
            List<JsonNode> hpas = m.ofKind("HorizontalPodAutoscaler").stream()
                    .filter(h -> deployment.equals(h.at("/spec/scaleTargetRef/name").asText())).toList();
            assertThat(hpas).as(service).hasSize(1);
            assertThat(hpas.get(0).at("/spec/scaleTargetRef/kind").asText()).isEqualTo("Deployment");
            assertThat(hpas.get(0).at("/spec/minReplicas").asInt()).isGreaterThanOrEqualTo(2);
            assertThat(hpas.get(0).at("/spec/maxReplicas").asInt())
                    .isGreaterThanOrEqualTo(hpas.get(0).at("/spec/minReplicas").asInt());
            assertThat(d.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt(-1)).isZero();
            JsonNode podLabels = d.at("/spec/template/metadata/labels");
            List<JsonNode> pdbs = m.ofKind("PodDisruptionBudget").stream()
                    .filter(p -> selects(p.at("/spec/selector/matchLabels"), podLabels)).toList();
            assertThat(pdbs).as(service).hasSize(1);
            assertThat(selects(d.at("/spec/selector/matchLabels"), podLabels)).isTrue();
        }
    }

    @Test
    void productionUsesCloudNativePgWithOneRoleAndDatabasePerService() {
        Manifests m = Chart.renderProduction();
        JsonNode cluster = m.one("Cluster", "agentpay-pg");
        assertThat(cluster.path("apiVersion").asText()).isEqualTo("postgresql.cnpg.io/v1");
        for (Map.Entry<String, String> e : Services.DATABASES.entrySet()) {
            String db = e.getValue();
            JsonNode role = null;
            for (JsonNode r : cluster.at("/spec/managed/roles")) {
                if (db.equals(r.path("name").asText())) {
                    role = r;
                }
            }
            assertThat(role).as("managed role " + db).isNotNull();
            // The role's password is the very Secret the service reads DB_PASSWORD from.
            JsonNode pw = envVar(m.deploymentOf(e.getKey()), "DB_PASSWORD");
            assertThat(role.at("/passwordSecret/name").asText()).isEqualTo(pw.at("/valueFrom/secretKeyRef/name").asText());
            JsonNode database = m.one("Database", "agentpay-pg-" + db);
            assertThat(database.at("/spec/name").asText()).isEqualTo(db);
            assertThat(database.at("/spec/owner").asText()).isEqualTo(db);
            assertThat(database.at("/spec/cluster/name").asText()).isEqualTo("agentpay-pg");
            String cm = m.deploymentOf(e.getKey()).at("/spec/template/spec/containers/0/envFrom/0/configMapRef/name").asText();
            assertThat(m.one("ConfigMap", cm).at("/data/DB_HOST").asText()).isEqualTo("agentpay-pg-rw");
        }
        assertThat(Chart.renderDefault().ofKind("Cluster")).isEmpty();
    }

    @Test
    void theChartRefusesASinglePodAndTheSingletonFlag() {
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.anchor-service.replicas", 1)))
                .hasMessageContaining("at least 2");
        assertThatThrownBy(() -> Chart.render(List.of(), Map.of("services.settlement-watcher.singleton", true)))
                .hasMessageContaining("singleton is gone");
        // any service may scale out, the leased ones included
        Map<String, Object> sets = new HashMap<>();
        sets.put("services.webhook-dispatcher.autoscaling.enabled", false);
        sets.put("services.webhook-dispatcher.replicas", 4);
        sets.put("services.anchor-service.replicas", 3);
        Manifests m = Chart.render(List.of(), sets);
        assertThat(m.deploymentOf("webhook-dispatcher").at("/spec/replicas").asInt()).isEqualTo(4);
        assertThat(m.deploymentOf("anchor-service").at("/spec/replicas").asInt()).isEqualTo(3);
    }

    @Test
    void tracingExportsToTheConfiguredCollectorOnlyWhenOneIsGiven() {
        Manifests none = Chart.renderDefault();
        for (String name : Services.DATABASES.keySet()) {
            assertThatThrownBy(() -> envVar(none.deploymentOf(name), "OTEL_EXPORTER_OTLP_ENDPOINT")).as(name)
                    .isInstanceOf(AssertionError.class);
            assertThat(envVar(none.deploymentOf(name), "PLATFORM_TRACING_SAMPLE_RATIO").path("value").asText()).isEqualTo("1.0");
        }
        Map<String, Object> sets = new HashMap<>();
        sets.put("tracing.otlp.endpoint", "http://otel-collector.observability:4318");
        sets.put("tracing.otlp.headersSecret.name", "otlp-headers");
        sets.put("tracing.otlp.headersSecret.key", "headers");
        sets.put("tracing.sampleRatio", "0.25");
        Manifests m = Chart.render(List.of(), sets);
        for (String name : Services.DATABASES.keySet()) {
            assertThat(envVar(m.deploymentOf(name), "OTEL_EXPORTER_OTLP_ENDPOINT").path("value").asText()).as(name)
                    .isEqualTo("http://otel-collector.observability:4318");
            assertThat(envVar(m.deploymentOf(name), "OTEL_EXPORTER_OTLP_HEADERS").at("/valueFrom/secretKeyRef/name").asText())
                    .isEqualTo("otlp-headers");
            assertThat(envVar(m.deploymentOf(name), "PLATFORM_TRACING_SAMPLE_RATIO").path("value").asText()).isEqualTo("0.25");
        }
    }

    static boolean selects(JsonNode selector, JsonNode labels) {
        if (selector.isMissingNode() || selector.size() == 0) {
            return false;
        }
        var it = selector.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (!e.getValue().asText().equals(labels.path(e.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    static JsonNode envVar(JsonNode deployment, String name) {
        for (JsonNode c : deployment.at("/spec/template/spec/containers")) {
            for (JsonNode e : c.path("env")) {
                if (name.equals(e.path("name").asText())) {
                    return e;
                }
            }
        }
        throw new AssertionError(name + " not set on " + deployment.at("/metadata/name").asText());
    }

    private static int portNumber(JsonNode container, String port) {
        if (port.matches("\\d+")) {
            return Integer.parseInt(port);
        }
        for (JsonNode p : container.path("ports")) {
            if (port.equals(p.path("name").asText())) {
                return p.path("containerPort").asInt();
            }
        }
        throw new AssertionError("no container port named " + port);
    }
}
