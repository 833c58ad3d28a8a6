package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.helm.Chart.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Ingress routes every public path of routes.yaml and of the spec to the owning service, and nothing
 * else. Requests are resolved the way Kubernetes resolves {@code pathType: Prefix}: element-wise prefix,
 * longest match wins.
 */
class IngressRoutesTest {

    /** Request paths of the spec's public surface -> owning service. */
    static final Map<String, String> SPEC_REQUESTS = new LinkedHashMap<>();

    static {
        SPEC_REQUESTS.put("/v1/mandates", "mandate-service");
        SPEC_REQUESTS.put("/v1/mandates/mnd_0b6f/sign", "mandate-service");
        SPEC_REQUESTS.put("/v1/mandates/mnd_0b6f/dispute", "mandate-service");
        SPEC_REQUESTS.put("/v1/public/mandates/mnd_0b6f", "mandate-service");
        SPEC_REQUESTS.put("/v1/invoices", "invoice-service");
        SPEC_REQUESTS.put("/v1/invoices/6a1c3f0e-0000-4000-8000-000000000000", "invoice-service");
        SPEC_REQUESTS.put("/api/x402/invoice", "invoice-service");
        SPEC_REQUESTS.put("/api/x402/settle", "invoice-service");
        SPEC_REQUESTS.put("/v1/webhooks", "webhook-dispatcher");
        SPEC_REQUESTS.put("/.well-known/disco.json", "discovery-service");
        SPEC_REQUESTS.put("/disco/sections/pricing.json", "discovery-service");
        SPEC_REQUESTS.put("/disco/reference/state-machines.md", "discovery-service");
        SPEC_REQUESTS.put("/disco/benchmark.json", "discovery-service");
        SPEC_REQUESTS.put("/disco/benchmark/publish", "discovery-service");
        SPEC_REQUESTS.put("/disco/mcp", "discovery-service");
        SPEC_REQUESTS.put("/openapi.json", "discovery-service"); // the merged OpenAPI document (issue 19)
        // OAuth 2.0 (issue 31): mandate-service issues tokens and publishes the keys and metadata
        SPEC_REQUESTS.put("/oauth/token", "mandate-service");
        SPEC_REQUESTS.put("/.well-known/jwks.json", "mandate-service");
        SPEC_REQUESTS.put("/.well-known/oauth-authorization-server", "mandate-service");
        SPEC_REQUESTS.put("/.well-known/oauth-protected-resource", "mandate-service");
        SPEC_REQUESTS.put("/.well-known/oauth-protected-resource/disco/mcp", "mandate-service");
    }

    /** The spec's path prefixes that must each be an Ingress path of their own. */
    static final Map<String, String> SPEC_PREFIXES = Map.of(
            "/v1/mandates", "mandate-service",
            "/v1/public", "mandate-service",
            "/v1/invoices", "invoice-service",
            "/v1/webhooks", "webhook-dispatcher",
            "/api/x402", "invoice-service",
            "/.well-known", "discovery-service",
            "/disco", "discovery-service");

    /** Never public: admin and Quarkus management endpoints, and near-misses of real prefixes. */
    static final List<String> NOT_ROUTED = List.of(
            "/admin/partners", "/admin", "/q/health", "/q/health/ready", "/q/metrics", "/q/openapi", "/",
            "/v1/mandatesX", "/v1", "/discovery", "/api/x4020", "/openapi.jsonx");

    record Route(String prefix, String service) {
    }

    static List<Route> routesYaml() {
        List<Route> routes = new ArrayList<>();
        for (JsonNode r : Chart.readYaml(Chart.dir().resolve("routes.yaml")).path("routes")) {
            routes.add(new Route(r.path("prefix").asText(), r.path("service").asText()));
        }
        return routes;
    }

    static Stream<Arguments> renderings() {
        return Stream.of(Arguments.of("default", Chart.renderDefault()),
                Arguments.of("production", Chart.renderProduction()));
    }

    @Test
    void routesYamlHasEveryPrefixOfTheSpec() {
        List<Route> routes = routesYaml();
        SPEC_PREFIXES.forEach((prefix, service) -> assertThat(routes).contains(new Route(prefix, service)));
        assertThat(routes).noneMatch(r -> r.prefix().startsWith("/admin") || r.prefix().startsWith("/q/"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void ingressHasExactlyTheRoutesOfRoutesYaml(String name, Manifests m) {
        List<Route> rendered = paths(m);
        assertThat(rendered).containsExactlyInAnyOrderElementsOf(routesYaml().stream()
                .map(r -> new Route(r.prefix(), serviceObjectOf(m, r.service()))).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void everySpecRequestReachesItsOwningService(String name, Manifests m) {
        List<Route> rendered = paths(m);
        SPEC_REQUESTS.forEach((path, owner) -> assertThat(resolve(rendered, path))
                .as(path).contains(serviceObjectOf(m, owner)));
        SPEC_PREFIXES.forEach((prefix, owner) -> assertThat(rendered)
                .as(prefix).contains(new Route(prefix, serviceObjectOf(m, owner))));
        for (String path : NOT_ROUTED) {
            assertThat(resolve(rendered, path)).as(path + " must not be routed").isEmpty();
        }
    }

    @Test
    void productionIngressHasHostClassAndTls() {
        JsonNode ing = Chart.renderProduction().ofKind("Ingress").get(0);
        assertThat(ing.at("/spec/ingressClassName").asText()).isEqualTo("nginx");
        assertThat(ing.at("/spec/rules/0/host").asText()).isEqualTo("api.agentpay.example.com");
        assertThat(ing.at("/spec/tls/0/hosts/0").asText()).isEqualTo("api.agentpay.example.com");
    }

    @Test
    void theIngressFollowsRoutesYamlAndRefusesAdminPaths(@TempDir Path tmp) throws Exception {
        Path copy = Chart.copy(tmp.resolve("agentpay"));
        Path routes = copy.resolve("routes.yaml");
        String original = Files.readString(routes);

        Files.writeString(routes, original + "  - prefix: /v1/reports\n    service: webhook-dispatcher\n");
        Manifests m = Manifests.parse(Chart.template(copy, List.of(), Map.of()));
        assertThat(resolve(paths(m), "/v1/reports/42")).contains("agentpay-webhook-dispatcher");

        Files.writeString(routes, original + "  - prefix: /admin/partners\n    service: mandate-service\n");
        assertThatThrownBy(() -> Chart.template(copy, List.of(), Map.of())).hasMessageContaining("must not be public");

        Files.writeString(routes, original + "  - prefix: /v1/things\n    service: no-such-service\n");
        assertThatThrownBy(() -> Chart.template(copy, List.of(), Map.of())).hasMessageContaining("unknown service");
    }

    /** The Service object that selects the pods of {@code service}'s Deployment on its http container port. */
    static String serviceObjectOf(Manifests m, String service) {
        JsonNode deployment = m.deploymentOf(service);
        JsonNode podLabels = deployment.at("/spec/template/metadata/labels");
        List<JsonNode> svcs = m.ofKind("Service").stream()
                .filter(s -> DeploymentsTest.selects(s.at("/spec/selector"), podLabels)).toList();
        assertThat(svcs).as("Service selecting " + service).hasSize(1);
        JsonNode port = svcs.get(0).at("/spec/ports/0");
        assertThat(port.path("name").asText()).isEqualTo("http");
        assertThat(port.path("targetPort").asText()).isEqualTo("http");
        assertThat(deployment.at("/spec/template/spec/containers/0/ports/0/name").asText()).isEqualTo("http");
        return svcs.get(0).at("/metadata/name").asText();
    }

    static List<Route> paths(Manifests m) {
        List<JsonNode> ingresses = m.ofKind("Ingress");
        assertThat(ingresses).hasSize(1);
        List<Route> out = new ArrayList<>();
        for (JsonNode rule : ingresses.get(0).at("/spec/rules")) {
            for (JsonNode p : rule.at("/http/paths")) {
                assertThat(p.path("pathType").asText()).isEqualTo("Prefix");
                assertThat(p.at("/backend/service/port/name").asText()).isEqualTo("http");
                out.add(new Route(p.path("path").asText(), p.at("/backend/service/name").asText()));
            }
        }
        return out;
    }

    /** Kubernetes Prefix matching: path elements split by '/', element-wise prefix, longest path wins. */
    static Optional<String> resolve(List<Route> routes, String request) {
        Route best = null;
        for (Route r : routes) {
            if (prefixMatches(r.prefix(), request) && (best == null || r.prefix().length() > best.prefix().length())) {
                best = r;
            }
        }
        return Optional.ofNullable(best).map(Route::service);
    }

    static boolean prefixMatches(String prefix, String request) {
        List<String> p = elements(prefix);
        List<String> q = elements(request);
        return q.size() >= p.size() && q.subList(0, p.size()).equals(p);
    }

    private static List<String> elements(String path) {
        return Stream.of(path.split("/")).filter(s -> !s.isEmpty()).toList();
    }
}
