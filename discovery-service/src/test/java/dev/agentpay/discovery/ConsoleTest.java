package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.discovery.testing.UpstreamStub;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The console's sign-in (an API key, or an OAuth client id and secret exchanged server-side for a token), its sign-in
 * CSRF token and Origin check, and a mandate's budget, against {@link UpstreamStub} standing in for mandate-service
 * ({@code /oauth/token}, mandates, budgets) and invoice-service. The browser journeys are deploy/e2e {@code PagesIT}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class ConsoleTest {

    static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    /** The sign-in page's CSRF cookie and token (the same value). */
    record LoginForm(String cookie, String token) {
    }

    static LoginForm loginForm() {
        Response r = given().redirects().follow(false).get("/console/login");
        assertThat(r.statusCode()).isEqualTo(200);
        String setCookie = r.getHeaders().getValues("Set-Cookie").stream().filter(c -> c.startsWith("agentpay_console_login=")).findFirst()
                .orElseThrow();
        assertThat(setCookie).contains("HttpOnly").containsIgnoringCase("SameSite=Strict").contains("Path=/console/login");
        Matcher m = CSRF.matcher(r.asString());
        assertThat(m.find()).isTrue();
        String cookie = r.getCookie("agentpay_console_login");
        assertThat(m.group(1)).isEqualTo(cookie);
        return new LoginForm(cookie, m.group(1));
    }

    static Response oauthSignIn(LoginForm f, String clientId, String secret) {
        return given().redirects().follow(false).cookie("agentpay_console_login", f.cookie()).formParam("_csrf", f.token())
                .formParam("clientId", clientId).formParam("clientSecret", secret).post("/console/login/oauth");
    }

    @Test
    void oauthSignInExchangesTheSecretOnceAndUsesTheBearerToken() {
        UpstreamStub stub = UpstreamStubResource.stub();
        int tokenCalls = stub.seen("POST", "/oauth/token").size();
        LoginForm f = loginForm();
        Response in = oauthSignIn(f, UpstreamStub.CLIENT_ID, UpstreamStub.CLIENT_SECRET);
        assertThat(in.statusCode()).as(in.asString()).isEqualTo(303);
        assertThat(in.getHeader("Location")).endsWith("/console/invoices");
        String session = in.getCookie("agentpay_console");
        assertThat(session).isNotBlank().doesNotContain(UpstreamStub.CLIENT_SECRET).doesNotContain(UpstreamStub.BEARER);
        // the secret went to the token endpoint once, as client_secret_post
        List<UpstreamStub.Seen> token = stub.seen("POST", "/oauth/token");
        assertThat(token).hasSize(tokenCalls + 1);
        assertThat(token.get(token.size() - 1).body()).contains("grant_type=client_credentials", "client_id=" + UpstreamStub.CLIENT_ID,
                "client_secret=" + UpstreamStub.CLIENT_SECRET);

        int before = stub.seen("GET", "/v1/invoices").size();
        String page = given().cookie("agentpay_console", session).get("/console/invoices").then().statusCode(200).extract().asString();
        assertThat(page).contains("OAuth client " + UpstreamStub.CLIENT_ID, "invoices:read mandates:read")
                .doesNotContain(UpstreamStub.CLIENT_SECRET).doesNotContain(UpstreamStub.BEARER);
        UpstreamStub.Seen call = stub.seen("GET", "/v1/invoices").get(before);
        assertThat(call.headers().get("Authorization")).containsExactly("Bearer " + UpstreamStub.BEARER);
        assertThat(call.headers()).doesNotContainKey("X-api-key");
        // the secret is not used again: reading pages asks for no token
        assertThat(stub.seen("POST", "/oauth/token")).hasSize(tokenCalls + 1);
    }

    @Test
    void aWrongSecretIsRefusedReadably() {
        Response r = oauthSignIn(loginForm(), UpstreamStub.CLIENT_ID, "cs_" + "00".repeat(32));
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.asString()).contains("id=\"oauth-error\"", "unknown, revoked or do not match");
        assertThat(r.getCookie("agentpay_console")).isNull();
        // not the shape of a client id and secret: refused before anything is sent
        int tokenCalls = UpstreamStubResource.stub().seen("POST", "/oauth/token").size();
        assertThat(oauthSignIn(loginForm(), "client", "secret").statusCode()).isEqualTo(401);
        assertThat(UpstreamStubResource.stub().seen("POST", "/oauth/token")).hasSize(tokenCalls);
    }

    @Test
    void signInFormsNeedTheirCsrfTokenAndThisOrigin() {
        UpstreamStub stub = UpstreamStubResource.stub();
        int tokenCalls = stub.seen("POST", "/oauth/token").size();
        LoginForm f = loginForm();
        // no cookie (another site's form: SameSite=Strict keeps it off), a wrong token, a foreign Origin: 403, nothing sent
        assertThat(given().redirects().follow(false).formParam("_csrf", f.token()).formParam("clientId", UpstreamStub.CLIENT_ID)
                .formParam("clientSecret", UpstreamStub.CLIENT_SECRET).post("/console/login/oauth").statusCode()).isEqualTo(403);
        assertThat(oauthSignIn(new LoginForm(f.cookie(), f.token().substring(1) + "A"), UpstreamStub.CLIENT_ID, UpstreamStub.CLIENT_SECRET)
                .statusCode()).isEqualTo(403);
        assertThat(given().redirects().follow(false).header("Origin", "https://evil.example").cookie("agentpay_console_login", f.cookie())
                .formParam("_csrf", f.token()).formParam("clientId", UpstreamStub.CLIENT_ID).formParam("clientSecret", UpstreamStub.CLIENT_SECRET)
                .post("/console/login/oauth").statusCode()).isEqualTo(403);
        assertThat(stub.seen("POST", "/oauth/token")).hasSize(tokenCalls);
        // the API-key form too
        assertThat(given().redirects().follow(false).formParam("apiKey", UpstreamStub.API_KEY).post("/console/login").statusCode()).isEqualTo(403);
        Response ok = given().redirects().follow(false).cookie("agentpay_console_login", f.cookie()).formParam("_csrf", f.token())
                .formParam("apiKey", UpstreamStub.API_KEY).post("/console/login");
        assertThat(ok.statusCode()).as(ok.asString()).isEqualTo(303);
    }

    @Test
    void aSessionEndsWithItsAccessToken() {
        Response in = oauthSignIn(loginForm(), UpstreamStub.SHORT_CLIENT_ID, UpstreamStub.CLIENT_SECRET);
        assertThat(in.statusCode()).isEqualTo(303);
        // a token of 20 s is within the 30 s margin: the session is over at once, and the sign-in page says why
        Response next = given().redirects().follow(false).cookie("agentpay_console", in.getCookie("agentpay_console")).get("/console/invoices");
        assertThat(next.statusCode()).isEqualTo(303);
        assertThat(next.getHeader("Location")).endsWith("/console/login?ended=expired");
        assertThat(given().get("/console/login?ended=expired").asString()).contains("the OAuth access token expired");
    }

    @Test
    void aMandatesBudgetShowsItsMoneyAndCharges() {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandateWithBudget("in_progress");
        LoginForm f = loginForm();
        String session = given().redirects().follow(false).cookie("agentpay_console_login", f.cookie()).formParam("_csrf", f.token())
                .formParam("apiKey", UpstreamStub.API_KEY).post("/console/login").getCookie("agentpay_console");
        String page = given().cookie("agentpay_console", session).get("/console/mandates/" + id).then().statusCode(200).extract().asString();
        assertThat(page).contains("id=\"budget-spent\">0.25<", "id=\"budget-reserved\">0.25<", "id=\"budget-remaining\">0.5<",
                "<meter id=\"budget-used\" min=\"0\" max=\"1.00\" value=\"0.5\"", "href=\"/checkout/00000000-0000-4000-8000-0000000000c2\"",
                "badge-settled", "badge-pending", "href=\"/console/mandates/" + id + "?charges=older-charges#charges\"")
                // a charge id is text, never markup
                .contains("chg_&lt;b&gt;paid&lt;/b&gt;").doesNotContain("<b>paid</b>");
        assertThat(stub.seen("GET", "/v1/mandates/" + id + "/budget").get(0).headers().get("X-api-key")).containsExactly(UpstreamStub.API_KEY);
        // the next page of charges passes the cursor on
        given().cookie("agentpay_console", session).get("/console/mandates/" + id + "?charges=older-charges").then().statusCode(200);
        assertThat(stub.seen("GET", "/v1/mandates/" + id + "/budget")).hasSize(2);
        // a mandate without a budget has no budget section
        String plain = stub.mandate("in_progress");
        assertThat(given().cookie("agentpay_console", session).get("/console/mandates/" + plain).then().statusCode(200).extract().asString())
                .doesNotContain("id=\"budget\"");
    }
}
