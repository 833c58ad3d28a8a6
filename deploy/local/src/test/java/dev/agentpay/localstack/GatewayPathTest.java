package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The gateway routes the path the services will see, so no dot-segment trick reaches an unrouted path. */
class GatewayPathTest {

    static final List<Gateway.Route> ROUTES = Gateway.readRoutes(Gateway.routesFile());

    @Test
    void dotSegmentsAreResolvedBeforeRouting() {
        assertThat(Gateway.publicPath("/v1/public/../../admin/partners")).isEqualTo("/admin/partners");
        assertThat(Gateway.publicPath("/v1/mandates/%2e%2e/%2E%2E/admin/partners")).isEqualTo("/admin/partners");
        assertThat(Gateway.publicPath("/v1/public/./mandates/x")).isEqualTo("/v1/public/mandates/x");
        assertThat(Gateway.route(ROUTES, Gateway.publicPath("/v1/public/../../admin/partners"))).isNull();
        assertThat(Gateway.route(ROUTES, Gateway.publicPath("/v1/public/x/../mandates/y")).service()).isEqualTo("mandate-service");
    }

    @Test
    void encodedSeparatorsAreRefused() {
        assertThat(Gateway.publicPath("/v1/public/..%2f..%2fadmin/partners")).isNull();
        assertThat(Gateway.publicPath("/v1/public/..%5Cadmin")).isNull();
        assertThat(Gateway.publicPath("/v1/public\\..\\admin")).isNull();
        assertThat(Gateway.publicPath("/v1/public/a%00")).isNull();
    }

    @Test
    void ordinaryPathsPassUnchanged() {
        for (String p : List.of("/v1/mandates", "/v1/invoices/123", "/.well-known/disco.json", "/disco/mcp", "/llms.txt")) {
            assertThat(Gateway.publicPath(p)).isEqualTo(p);
        }
        assertThat(Map.of("ok", Gateway.route(ROUTES, "/v1/mandates/x").service())).containsEntry("ok", "mandate-service");
    }
}
