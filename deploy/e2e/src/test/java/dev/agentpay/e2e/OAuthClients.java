package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.List;
import java.util.Map;

/** OAuth clients of a partner, registered through mandate-service's admin API. */
final class OAuthClients {

    /** A registered client: its id and secret. */
    record Client(String id, String secret) {
    }

    private OAuthClients() {
    }

    /**
     * Registers an OAuth client of {@code partnerId} named {@code name} with {@code scopes}; its secret is registered with
     * {@link LogEvidence} as {@code secretLabel} (it must appear in no log).
     */
    static Client register(Map<String, String> env, String partnerId, String name, List<String> scopes, String secretLabel) {
        Response c = given().baseUri(env.get("MANDATE_SERVICE_URL")).header("x-admin-key", env.get("ADMIN_API_KEY"))
                .contentType("application/json").body(Map.of("name", name, "scopes", scopes))
                .post("/admin/partners/" + partnerId + "/oauth-clients");
        assertThat(c.statusCode()).as(c.asString()).isEqualTo(201);
        String secret = c.path("data.client_secret");
        LogEvidence.secret(secretLabel, secret);
        return new Client(c.path("data.client_id"), secret);
    }
}
