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

    /** A console session signed in with the stub's API key: its cookie and its CSRF token (read from a page's form). */
    record Signed(String session, String csrf) {
    }

    static Signed signInWithKey() {
        LoginForm f = loginForm();
        String session = given().redirects().follow(false).cookie("agentpay_console_login", f.cookie()).formParam("_csrf", f.token())
                .formParam("apiKey", UpstreamStub.API_KEY).post("/console/login").getCookie("agentpay_console");
        Matcher m = CSRF.matcher(given().cookie("agentpay_console", session).get("/console/mandates").asString());
        assertThat(m.find()).isTrue();
        return new Signed(session, m.group(1));
    }

    @Test
    void aDisputeCaseShowsEachSidesEvidenceTakesNewEvidenceAndShowsTheOutcome() {
        UpstreamStub stub = UpstreamStubResource.stub();
        Signed s = signInWithKey();
        String id = stub.mandate("in_progress");
        // never disputed: the case page says so
        assertThat(given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id + "/dispute").then().statusCode(404)
                .extract().asString()).contains("id=\"no-dispute\"");
        given().redirects().follow(false).cookie("agentpay_console", s.session()).formParam("_csrf", s.csrf())
                .formParam("reason", "<script>alert(1)</script> never delivered").post("/console/mandates/" + id + "/dispute")
                .then().statusCode(303);
        assertThat(given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id).asString())
                .contains("href=\"/console/mandates/" + id + "/dispute\"");
        String page = given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id + "/dispute").then().statusCode(200)
                .extract().asString();
        assertThat(page).contains("id=\"case-status\">open<", "&lt;script&gt;alert(1)&lt;/script&gt; never delivered",
                "id=\"side-proposer\"", "id=\"side-counterparty\"", "id=\"evidence-form\"", "2026-12-10T16:59:00.000Z")
                .doesNotContain("<script>alert(1)");
        Matcher key = Pattern.compile("name=\"idempotencyKey\" value=\"([^\"]+)\"").matcher(page);
        assertThat(key.find()).isTrue();

        // evidence: refused without the session's CSRF token or from another origin, nothing sent
        int posts = stub.seen("POST", "/v1/mandates/" + id + "/dispute/evidence").size();
        assertThat(given().redirects().follow(false).cookie("agentpay_console", s.session()).formParam("_csrf", "forged")
                .formParam("party", "counterparty").formParam("text", "x").post("/console/mandates/" + id + "/dispute/evidence").statusCode())
                .isEqualTo(403);
        assertThat(given().redirects().follow(false).header("Origin", "https://evil.example").cookie("agentpay_console", s.session())
                .formParam("_csrf", s.csrf()).formParam("party", "counterparty").formParam("text", "x")
                .post("/console/mandates/" + id + "/dispute/evidence").statusCode()).isEqualTo(403);
        assertThat(stub.seen("POST", "/v1/mandates/" + id + "/dispute/evidence")).hasSize(posts);

        // added for the counterparty with links; sent twice with the same form key: one piece of evidence
        for (int i = 0; i < 2; i++) {
            Response added = given().redirects().follow(false).cookie("agentpay_console", s.session()).formParam("_csrf", s.csrf())
                    .formParam("idempotencyKey", key.group(1)).formParam("party", "counterparty")
                    .formParam("text", "Delivered <img src=x onerror=alert(1)> on 3 May")
                    .formParam("links", "https://example.com/log.txt\n\njavascript:alert(1)\n")
                    .post("/console/mandates/" + id + "/dispute/evidence");
            assertThat(added.statusCode()).as(added.asString()).isEqualTo(303);
            assertThat(added.getHeader("Location")).contains("/console/mandates/" + id + "/dispute?flash=evidence#evidence-evd_");
        }
        UpstreamStub.Seen sent = stub.seen("POST", "/v1/mandates/" + id + "/dispute/evidence").get(posts);
        assertThat(sent.headers().get("Idempotency-key")).containsExactly(key.group(1));
        assertThat(sent.body()).contains("\"party\":\"counterparty\"", "\"links\":[\"https://example.com/log.txt\",\"javascript:alert(1)\"]",
                "\"triggered_by\":\"console\"");
        page = given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id + "/dispute?flash=evidence").asString();
        assertThat(Pattern.compile("data-evidence-id=").matcher(page).results().count()).isEqualTo(1);
        assertThat(page).contains("Evidence added.", "Delivered &lt;img src=x onerror=alert(1)&gt; on 3 May",
                "<a href=\"https://example.com/log.txt\" rel=\"noreferrer noopener nofollow\"", "<span class=\"text\">javascript:alert(1)</span>")
                .doesNotContain("href=\"javascript:").doesNotContain("<img src=x");

        // the arbiter decides: the outcome is shown and no more evidence can be added here
        stub.resolve(id, "0", "0", "refund <b>agreed</b>");
        page = given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id + "/dispute").asString();
        assertThat(page).contains("id=\"case-status\">resolved<", "Resolved by the arbiter", "id=\"outcome-counterparty\">0<",
                "refund &lt;b&gt;agreed&lt;/b&gt;").doesNotContain("id=\"evidence-form\"");
    }

    @Test
    void aPlatformWithoutDisputeCasesSaysSo() {
        UpstreamStub stub = UpstreamStubResource.stub();
        Signed s = signInWithKey();
        String id = stub.mandate("disputed");
        stub.withoutCases.add(id);
        assertThat(given().cookie("agentpay_console", s.session()).get("/console/mandates/" + id + "/dispute").then().statusCode(404)
                .extract().asString()).contains("id=\"dispute-unavailable\"").doesNotContain("id=\"evidence-form\"");
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
