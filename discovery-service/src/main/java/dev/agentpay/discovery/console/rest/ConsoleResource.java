package dev.agentpay.discovery.console.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.domain.UpstreamResponse;
import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import dev.agentpay.discovery.console.domain.JsonView;
import dev.agentpay.discovery.console.service.ConsoleCharts;
import dev.agentpay.discovery.console.service.ConsoleSessions;
import dev.agentpay.discovery.console.service.ConsoleSessions.Credential;
import dev.agentpay.discovery.console.service.ConsoleSessions.Session;
import dev.agentpay.discovery.console.service.PartnerApi;
import dev.agentpay.discovery.console.service.PartnerApi.Service;
import dev.agentpay.commons.limits.ForwardedClient;
import dev.agentpay.discovery.verification.service.MandateVerifier;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The partner console, {@code /console}: HTML pages rendered on the server (Qute; every partner- or
 * counterparty-controlled text escaped), plain forms posted back with the session's CSRF token and answered with a
 * redirect (POST-redirect-GET), no script. Signing in keeps the API key in this process ({@link ConsoleSessions});
 * every page is the public API called with that key ({@link PartnerApi}). Pages for people, not API operations:
 * hidden from the OpenAPI document (README "Pages").
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class ConsoleResource {

    static final Pattern UUID_TEXT = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    static final Pattern MANDATE_ID = Pattern.compile("mnd_[0-9a-fA-F-]{36}");
    static final Pattern API_KEY = Pattern.compile("sk_[0-9a-f]{64}");
    static final Pattern CLIENT_ID = Pattern.compile("cli_[0-9a-f]{32}");
    static final Pattern CLIENT_SECRET = Pattern.compile("cs_[0-9a-f]{64}");
    static final Pattern LOGIN_TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");
    /** The sign-in forms' CSRF token (double submit: this cookie and the form's {@code _csrf} must be equal). */
    static final String LOGIN_COOKIE = "agentpay_console_login";
    static final String SCOPE_INVOICES = "invoices:read";
    static final String SCOPE_MANDATES = "mandates:read";
    static final int CHARGES_PAGE = 50;
    /** The invoice list's status filter: what it accepts and, in this order, what it offers. */
    static final List<String> INVOICE_STATUSES = List.of("PENDING", "SETTLED", "EXPIRED");
    static final List<String> CHAINS = List.of("base", "polygon", "arbitrum", "skale", "solana");
    static final List<String> DELIVERY_STATUSES = List.of("pending", "succeeded", "failed");
    static final SecureRandom RANDOM = new SecureRandom();
    /** What the not-found page says of an id that is not one of a mandate, a webhook subscription, a delivery. */
    static final String NO_SUCH_MANDATE = "No mandate has this id.";
    static final String NO_SUCH_WEBHOOK = "No webhook subscription has this id.";
    static final String NO_SUCH_DELIVERY = "No delivery has this id.";

    @Inject
    ConsoleSessions sessions;

    @Inject
    PartnerApi api;

    @Inject
    ConsoleCharts charts;

    @Inject
    MandateVerifier verifier;

    @Inject
    ObjectMapper mapper;

    @Inject
    ForwardedClient forwarded;

    @Inject
    @Location("console/login.html")
    Template login;

    @Inject
    @Location("console/invoices.html")
    Template invoices;

    @Inject
    @Location("console/mandates.html")
    Template mandates;

    @Inject
    @Location("console/mandate.html")
    Template mandate;

    @Inject
    @Location("console/dispute.html")
    Template disputeCase;

    @Inject
    @Location("console/webhooks.html")
    Template webhooks;

    @Inject
    @Location("console/webhook.html")
    Template webhook;

    @Inject
    @Location("console/delivery.html")
    Template delivery;

    @Inject
    @Location("console/charts.html")
    Template chartsPage;

    @Inject
    @Location("console/error.html")
    Template error;

    @Context
    UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    // ---- sign-in ----

    @GET
    @Operation(hidden = true)
    public Uni<Response> home(@CookieParam(ConsoleSessions.COOKIE) String sid) {
        return Uni.createFrom().item(sessions.find(sid).map(s -> see(landing(s.credential()))).orElseGet(() -> ended(sid)));
    }

    /**
     * The sign-in page: an API key, or an OAuth client id and secret. Both forms carry a sign-in CSRF token (there is
     * no session yet): a random value set here in an HttpOnly, SameSite=Strict cookie scoped to the sign-in path and
     * repeated in the form, so that no other site can sign a browser in with credentials of its choosing.
     */
    @GET
    @Path("/login")
    @Operation(hidden = true)
    public Uni<Response> loginPage(@CookieParam(ConsoleSessions.COOKIE) String sid, @CookieParam(LOGIN_COOKIE) String loginToken,
            @QueryParam("ended") String ended) {
        if (sessions.find(sid).isPresent()) {
            return Uni.createFrom().item(see(landing(sessions.find(sid).get().credential())));
        }
        String token = loginToken != null && LOGIN_TOKEN.matcher(loginToken).matches() ? loginToken : ConsoleSessions.token();
        return loginHtml(200, token, null, null, "expired".equals(ended)
                ? "Your session ended: the OAuth access token expired. Sign in again with the client id and secret." : null);
    }

    @POST
    @Path("/login")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> signIn(@FormParam("apiKey") String apiKey, @FormParam("_csrf") String csrf,
            @CookieParam(LOGIN_COOKIE) String loginToken, @HeaderParam("Origin") String origin) {
        if (!sameOrigin(origin) || !ConsoleSessions.tokensMatch(loginToken, csrf)) {
            return formRefused(null);
        }
        String key = apiKey == null ? "" : apiKey.trim();
        if (!API_KEY.matcher(key).matches()) {
            return loginHtml(401, loginToken, "apikey", "That is not an API key (sk_ followed by 64 hexadecimal characters).", null);
        }
        // the key is checked by the API itself: a partner endpoint answers 200 only to a valid key
        Credential credential = Credential.apiKey(key);
        return api.get(Service.INVOICE, credential, "/v1/invoices?limit=1").chain(r -> {
            if (r.status() == 200) {
                Session s = sessions.open(credential);
                return Uni.createFrom().item(Response.seeOther(URI.create("/console/invoices")).cookie(cookie(s.id(), false)).build());
            }
            return loginHtml(401, loginToken, "apikey", r.status() == 401 ? "This API key is unknown or revoked."
                    : "The key could not be checked just now (" + r.status() + "). Try again.", null);
        }).onFailure(UpstreamUnavailableException.class).recoverWithUni(e -> loginHtml(503, loginToken, "apikey",
                "The platform could not be reached just now. Try again.", null));
    }

    /**
     * Sign-in with an OAuth 2.0 client: the console exchanges the id and secret at mandate-service's
     * {@code POST /oauth/token} (client credentials, server to server) and keeps only the access token, in this
     * process; the secret is used for that one request and kept nowhere. The session lasts as long as the token
     * (10 minutes), then the partner signs in again.
     */
    @POST
    @Path("/login/oauth")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> signInOAuth(@FormParam("clientId") String clientId, @FormParam("clientSecret") String clientSecret,
            @FormParam("_csrf") String csrf, @CookieParam(LOGIN_COOKIE) String loginToken, @HeaderParam("Origin") String origin,
            @Context HttpServerRequest request) {
        if (!sameOrigin(origin) || !ConsoleSessions.tokensMatch(loginToken, csrf)) {
            return formRefused(null);
        }
        String id = clientId == null ? "" : clientId.trim();
        String secret = clientSecret == null ? "" : clientSecret.trim();
        if (!CLIENT_ID.matcher(id).matches() || !CLIENT_SECRET.matcher(secret).matches()) {
            return loginHtml(401, loginToken, "oauth", "That is not an OAuth client id and secret (cli_ followed by 32, and cs_ followed by 64"
                    + " hexadecimal characters).", null);
        }
        return api.token(id, secret, forwarded.of(request)).chain(r -> {
            JsonNode b = r.body();
            if (r.status() == 200 && b != null && b.path("access_token").isTextual() && b.path("expires_in").canConvertToLong()) {
                Set<String> scopes = new java.util.TreeSet<>(List.of(b.path("scope").asText("").trim().split("\\s+")));
                scopes.remove("");
                Credential credential = Credential.bearer(b.path("access_token").asText(), id, scopes,
                        java.time.Instant.now().plusSeconds(b.path("expires_in").asLong()));
                Session s = sessions.open(credential);
                return Uni.createFrom().item(Response.seeOther(URI.create(landing(credential))).cookie(cookie(s.id(), false)).build());
            }
            String code = b == null ? "" : b.path("error").isTextual() ? b.path("error").asText() : b.path("error").path("code").asText("");
            String message = switch (r.status()) {
                case 401 -> "This client id and secret are unknown, revoked or do not match.";
                case 429 -> "Too many sign-in attempts just now. Wait a minute and try again.";
                case 400 -> "The platform refused this client (" + code + ").";
                default -> "The client could not be checked just now (" + r.status() + "). Try again.";
            };
            return loginHtml(r.status() == 429 ? 429 : 401, loginToken, "oauth", message, null);
        }).onFailure(UpstreamUnavailableException.class).recoverWithUni(e -> loginHtml(503, loginToken, "oauth",
                "The platform could not be reached just now. Try again.", null));
    }

    /** The first page a session may read: the invoices, else the mandates, else the webhooks. */
    static String landing(Credential c) {
        return c.allows(SCOPE_INVOICES) ? "/console/invoices" : c.allows(SCOPE_MANDATES) ? "/console/mandates" : "/console/webhooks";
    }

    /** The sign-in page with its CSRF token (set again in the cookie); {@code form} names the form an error belongs to. */
    Uni<Response> loginHtml(int status, String token, String form, String errorText, String notice) {
        String t = token != null && LOGIN_TOKEN.matcher(token).matches() ? token : ConsoleSessions.token();
        return login.data("s", null).data("nav", "").data("csrf", t).data("form", form).data("error", errorText).data("notice", notice)
                .createUni().map(h -> Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity(h)
                        .header("Cache-Control", "no-store").cookie(loginCookie(t)).build());
    }

    @POST
    @Path("/logout")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> signOut(@CookieParam(ConsoleSessions.COOKIE) String sid, @FormParam("_csrf") String csrf) {
        return withPost(sid, csrf, null, s -> {
            sessions.close(s.id());
            return Uni.createFrom().item(Response.seeOther(URI.create("/console/login")).cookie(cookie("", true)).build());
        });
    }

    // ---- invoices ----

    @GET
    @Path("/invoices")
    @Operation(hidden = true)
    public Uni<Response> invoices(@CookieParam(ConsoleSessions.COOKIE) String sid, @QueryParam("status") String status,
            @QueryParam("chain") String chain, @QueryParam("cursor") String cursor) {
        return withSession(sid, s -> {
            String st = status == null ? "" : status.trim().toUpperCase(Locale.ROOT);
            String ch = chain == null ? "" : chain.trim().toLowerCase(Locale.ROOT);
            String only = INVOICE_STATUSES.contains(st) ? st : "";
            String onChain = CHAINS.contains(ch) ? ch : "";
            return api.get(Service.INVOICE, s.credential(), listCall("/v1/invoices", "status", only, cursor)).chain(r -> ok(s, r, data -> {
                List<Object> items = new ArrayList<>();
                for (JsonNode i : data.path("items")) {
                    if (onChain.isEmpty() || onChain.equals(i.path("paymentDetails").path("chain").asText())) {
                        items.add(tree(i));
                    }
                }
                String next = nextPage("/console/invoices", filter("status", only) + filter("chain", onChain), data);
                return invoices.data("s", s).data("nav", "invoices").data("items", items).data("status", only).data("chain", onChain)
                        .data("statuses", INVOICE_STATUSES).data("chains", CHAINS)
                        .data("next", next);
            }));
        });
    }

    // ---- mandates ----

    @GET
    @Path("/mandates")
    @Operation(hidden = true)
    public Uni<Response> mandates(@CookieParam(ConsoleSessions.COOKIE) String sid, @QueryParam("state") String state,
            @QueryParam("id") String id, @QueryParam("cursor") String cursor) {
        return withSession(sid, s -> {
            if (id != null && !id.isBlank()) {
                String m = id.trim();
                return Uni.createFrom().item(MANDATE_ID.matcher(m).matches() ? see("/console/mandates/" + m)
                        : see("/console/mandates?notfound=1"));
            }
            String st = state == null ? "" : state.trim().toLowerCase(Locale.ROOT);
            String only = st.matches("[a-z_]{1,40}") ? st : "";
            return api.get(Service.MANDATE, s.credential(), listCall("/v1/mandates", "state", only, cursor)).chain(r -> {
                // a platform without the mandate list (GET /v1/mandates) still offers the search by id
                boolean listed = r.status() == 200;
                if (!listed && r.status() != 404 && r.status() != 405) {
                    return failed(s, r);
                }
                List<Object> items = new ArrayList<>();
                String next = null;
                if (listed) {
                    JsonNode data = r.body().path("data");
                    for (JsonNode m : data.path("items")) {
                        items.add(tree(m));
                    }
                    next = nextPage("/console/mandates", filter("state", only), data);
                }
                return html(200, mandates.data("s", s).data("nav", "mandates").data("items", items).data("listed", listed)
                        .data("state", only).data("next", next).data("notfound", uri.getQueryParameters().containsKey("notfound"))
                        .data("states", List.of("proposed", "signed_by_proposer", "signed_by_both", "in_progress",
                                "completed", "disputed", "resolved", "expired")));
            });
        });
    }

    @GET
    @Path("/mandates/{id}")
    @Operation(hidden = true)
    public Uni<Response> mandate(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @QueryParam("charges") String chargesCursor) {
        return withSession(sid, MANDATE_ID.matcher(id).matches(), NO_SUCH_MANDATE, s -> {
            return api.get(Service.MANDATE, s.credential(), "/v1/mandates/" + id).chain(r -> {
                if (r.status() == 404) {
                    return notFound(s, "No mandate of yours has this id.");
                }
                if (r.status() != 200) {
                    return failed(s, r);
                }
                JsonNode m = r.body().path("data");
                // the public proof and what checking it finds (the same checks as MCP service_verify_mandate)
                Uni<ObjectNode> verified = m.path("transitions").size() > 1 || "signed_by_both".equals(m.path("state").asText())
                        ? api.get(Service.MANDATE, s.credential(), "/v1/public/mandates/" + id + "/proof")
                                .chain(p -> p.status() == 200 && p.body() != null ? verifier.verify(p.body().path("data"))
                                        : Uni.createFrom().nullItem())
                                .onFailure().recoverWithNull()
                        : Uni.createFrom().nullItem();
                // the budget (issue 28): its money state and its charges, newest first, 50 a page
                Uni<UpstreamResponse> budget = m.path("budget").isObject()
                        ? api.get(Service.MANDATE, s.credential(), "/v1/mandates/" + id + "/budget?limit=" + CHARGES_PAGE
                                + (chargesCursor == null || chargesCursor.isBlank() ? "" : "&cursor=" + enc(chargesCursor.trim())))
                                .onFailure().recoverWithNull()
                        : Uni.createFrom().nullItem();
                return Uni.combine().all().unis(verified, budget).with((v, b) -> {
                    JsonNode bd = b != null && b.status() == 200 && b.body() != null ? b.body().path("data") : null;
                    String budgetError = m.path("budget").isObject() && bd == null
                            ? (b == null ? "The budget could not be read just now." : "The budget could not be read: " + apiError(b)) : null;
                    String olderCharges = bd != null && bd.path("next_cursor").isTextual()
                            ? "/console/mandates/" + id + "?charges=" + enc(bd.path("next_cursor").asText()) + "#charges" : null;
                    return mandate.data("s", s).data("nav", "mandates").data("m", tree(m))
                            .data("terms", pretty(m.path("terms"))).data("verification", v == null ? null : tree(v))
                            .data("budget", bd == null ? null : tree(bd)).data("budgetError", budgetError).data("budgetUsed", used(bd))
                            .data("olderCharges", olderCharges).data("chargesPaged", chargesCursor != null && !chargesCursor.isBlank())
                            .data("disputable", Set.of("signed_by_both", "in_progress").contains(m.path("state").asText()))
                            .data("flash", flash());
                }).chain(page -> html(200, page));
            });
        });
    }

    @POST
    @Path("/mandates/{id}/dispute")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> dispute(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @FormParam("_csrf") String csrf, @FormParam("reason") String reason, @HeaderParam("Origin") String origin) {
        return withPost(sid, csrf, origin, MANDATE_ID.matcher(id).matches(), NO_SUCH_MANDATE, s -> {
            ObjectNode body = mapper.createObjectNode().put("reason", reason == null ? "" : reason).put("triggered_by", "console");
            return postThenSee(s, Service.MANDATE, "/v1/mandates/" + id + "/dispute", body, "/console/mandates/" + id + "?flash=disputed");
        });
    }

    // ---- dispute cases (issue 30: GET /v1/mandates/{id}/dispute, POST .../dispute/evidence) ----

    /**
     * A dispute's case: its reason and deadline, every side's evidence (text and links as text; links made links only
     * when they are http(s) URLs), each piece's hash and anchor, the outcome once resolved, and a form to add evidence
     * for a side while the case is open. A platform without dispute cases (the route answers a plain 404) says so.
     */
    @GET
    @Path("/mandates/{id}/dispute")
    @Operation(hidden = true)
    public Uni<Response> disputeCase(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id) {
        return withSession(sid, MANDATE_ID.matcher(id).matches(), NO_SUCH_MANDATE, s -> {
            return api.get(Service.MANDATE, s.credential(), "/v1/mandates/" + id + "/dispute").chain(r -> {
                String code = r.body() == null ? "" : r.body().path("error").path("code").asText("");
                if (r.status() == 404 && "mandate_not_found".equals(code)) {
                    return notFound(s, "No mandate of yours has this id.");
                }
                // before issue 30 the path has only POST (opening a dispute): a GET is 405, or a plain 404 elsewhere
                if (r.status() == 405 || r.status() == 404 && !"no_dispute".equals(code)) {
                    return html(404, disputeCase.data("s", s).data("nav", "mandates").data("id", id).data("c", null).data("unavailable", true)
                            .data("flash", null).data("idempotencyKey", null));
                }
                if (r.status() == 404) {
                    return html(404, disputeCase.data("s", s).data("nav", "mandates").data("id", id).data("c", null).data("unavailable", false)
                            .data("flash", null).data("idempotencyKey", null));
                }
                return ok(s, r, c -> disputeCase.data("s", s).data("nav", "mandates").data("id", id).data("c", caseView(c))
                        .data("unavailable", false).data("flash", flash())
                        // one key per form shown: sending the same form twice adds the evidence once (the API replays)
                        .data("idempotencyKey", java.util.UUID.randomUUID().toString()));
            });
        });
    }

    @POST
    @Path("/mandates/{id}/dispute/evidence")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> addEvidence(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @FormParam("_csrf") String csrf, @FormParam("party") String party, @FormParam("text") String text,
            @FormParam("links") String links, @FormParam("idempotencyKey") String idempotencyKey, @HeaderParam("Origin") String origin) {
        return withPost(sid, csrf, origin, MANDATE_ID.matcher(id).matches(), NO_SUCH_MANDATE, s -> {
            ObjectNode body = mapper.createObjectNode().put("party", party == null ? "" : party.trim()).put("text", text == null ? "" : text)
                    .put("triggered_by", "console");
            var list = body.putArray("links");
            if (links != null) {
                links.lines().map(String::trim).filter(l -> !l.isEmpty()).forEach(list::add);
            }
            String key = idempotencyKey != null && UUID_TEXT.matcher(idempotencyKey).matches() ? idempotencyKey : null;
            return api.post(Service.MANDATE, s.credential(), "/v1/mandates/" + id + "/dispute/evidence", body, key)
                    .chain(r -> r.status() == 201 || r.status() == 200
                            ? Uni.createFrom().item(see("/console/mandates/" + id + "/dispute?flash=evidence#evidence-"
                                    + enc(r.body() == null ? "" : r.body().path("data").path("evidence_id").asText(""))))
                            : failed(s, r));
        });
    }

    /** The case as the template reads it, each link marked whether it may be a link (http or https) or stays text. */
    Object caseView(JsonNode c) {
        @SuppressWarnings("unchecked")
        Map<String, Object> view = (Map<String, Object>) JsonView.object(c);
        List<Object> sides = new ArrayList<>();
        for (JsonNode side : c.path("sides")) {
            Map<String, Object> sv = JsonView.object(side);
            List<Object> evidence = new ArrayList<>();
            for (JsonNode e : side.path("evidence")) {
                Map<String, Object> ev = JsonView.object(e);
                List<Object> ls = new ArrayList<>();
                for (JsonNode l : e.path("links")) {
                    Map<String, Object> lv = new LinkedHashMap<>();
                    lv.put("url", l.asText());
                    lv.put("linkable", linkable(l.asText()));
                    ls.add(lv);
                }
                ev.put("links", ls);
                evidence.add(ev);
            }
            sv.put("evidence", evidence);
            sides.add(sv);
        }
        view.put("sides", sides);
        return view;
    }

    /** Whether a partner-given URL may be an {@code href}: an absolute http or https URL with a host, nothing else. */
    static boolean linkable(String url) {
        try {
            URI u = new URI(url);
            return ("https".equalsIgnoreCase(u.getScheme()) || "http".equalsIgnoreCase(u.getScheme())) && u.getHost() != null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    // ---- webhooks ----

    @GET
    @Path("/webhooks")
    @Operation(hidden = true)
    public Uni<Response> webhooks(@CookieParam(ConsoleSessions.COOKIE) String sid) {
        return withSession(sid, s -> api.get(Service.WEBHOOK, s.credential(), "/v1/webhooks").chain(r -> ok(s, r,
                data -> webhooks.data("s", s).data("nav", "webhooks").data("items", tree(data)))));
    }

    @GET
    @Path("/webhooks/{id}")
    @Operation(hidden = true)
    public Uni<Response> webhook(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @QueryParam("status") String status, @QueryParam("before") String before) {
        return withSession(sid, UUID_TEXT.matcher(id).matches(), NO_SUCH_WEBHOOK, s -> {
            String st = status == null ? "" : status.trim().toLowerCase(Locale.ROOT);
            String only = DELIVERY_STATUSES.contains(st) ? st : "";
            String page = "/v1/webhooks/" + id + "/deliveries?limit=50" + (only.isEmpty() ? "" : "&status=" + only)
                    + (before != null && UUID_TEXT.matcher(before).matches() ? "&before=" + before : "");
            return api.get(Service.WEBHOOK, s.credential(), "/v1/webhooks/" + id).chain(sub -> {
                if (sub.status() == 404) {
                    return notFound(s, "No webhook subscription of yours has this id.");
                }
                if (sub.status() != 200) {
                    return failed(s, sub);
                }
                return api.get(Service.WEBHOOK, s.credential(), page).chain(d -> ok(s, d, data -> {
                    String next = data.size() == 50 ? "/console/webhooks/" + id + "?" + (only.isEmpty() ? "" : "status=" + only + "&")
                            + "before=" + data.get(data.size() - 1).path("id").asText() : null;
                    return webhook.data("s", s).data("nav", "webhooks").data("w", tree(sub.body().path("data")))
                            .data("items", tree(data)).data("status", only).data("statuses", DELIVERY_STATUSES).data("next", next).data("flash", flash())
                            .data("suggestedSecret", "whsec-" + HexFormat.of().formatHex(random(24)));
                }));
            });
        });
    }

    @GET
    @Path("/webhooks/{id}/deliveries/{deliveryId}")
    @Operation(hidden = true)
    public Uni<Response> delivery(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @PathParam("deliveryId") String deliveryId) {
        return withSession(sid, UUID_TEXT.matcher(id).matches() && UUID_TEXT.matcher(deliveryId).matches(), NO_SUCH_DELIVERY, s -> {
            return api.get(Service.WEBHOOK, s.credential(), "/v1/webhooks/" + id + "/deliveries/" + deliveryId).chain(r -> r.status() == 404
                    ? notFound(s, "No delivery of yours has this id.")
                    : ok(s, r, data -> delivery.data("s", s).data("nav", "webhooks").data("webhookId", id).data("d", tree(data))
                            .data("flash", flash())));
        });
    }

    @POST
    @Path("/webhooks/{id}/deliveries/{deliveryId}/redeliver")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> redeliver(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @PathParam("deliveryId") String deliveryId, @FormParam("_csrf") String csrf, @HeaderParam("Origin") String origin) {
        return withPost(sid, csrf, origin, UUID_TEXT.matcher(id).matches() && UUID_TEXT.matcher(deliveryId).matches(), NO_SUCH_DELIVERY, s -> {
            return postThenSee(s, Service.WEBHOOK, "/v1/webhooks/" + id + "/deliveries/" + deliveryId + "/redeliver", null,
                    "/console/webhooks/" + id + "/deliveries/" + deliveryId + "?flash=redelivered");
        });
    }

    @POST
    @Path("/webhooks/{id}/rotate-secret")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Uni<Response> rotate(@CookieParam(ConsoleSessions.COOKIE) String sid, @PathParam("id") String id,
            @FormParam("_csrf") String csrf, @FormParam("secret") String secret, @FormParam("overlapSeconds") String overlap,
            @HeaderParam("Origin") String origin) {
        return withPost(sid, csrf, origin, UUID_TEXT.matcher(id).matches(), NO_SUCH_WEBHOOK, s -> {
            ObjectNode body = mapper.createObjectNode().put("secret", secret == null ? "" : secret);
            if (overlap != null && overlap.matches("[0-9]{1,7}")) {
                body.put("overlapSeconds", Long.parseLong(overlap));
            }
            return postThenSee(s, Service.WEBHOOK, "/v1/webhooks/" + id + "/rotate-secret", body, "/console/webhooks/" + id + "?flash=rotated");
        });
    }

    // ---- charts ----

    @GET
    @Path("/charts")
    @Operation(hidden = true)
    public Uni<Response> charts(@CookieParam(ConsoleSessions.COOKIE) String sid) {
        return withSession(sid, s -> charts.compute(s.credential()).chain(c -> html(200, chartsPage.data("s", s).data("nav", "charts").data("c", c)))
                .onFailure(IllegalStateException.class).recoverWithUni(e -> errorPage(502, s, "Charts unavailable", "The figures could not be read: " + e.getMessage())));
    }

    // ---- plumbing ----

    /** A page that needs a session: without one (or with a key the API no longer accepts), the sign-in page. */
    Uni<Response> withSession(String sid, Function<Session, Uni<Response>> page) {
        return sessions.find(sid).map(s -> page.apply(s)
                .onFailure(UpstreamUnavailableException.class).recoverWithUni(e -> unreachable(s)))
                .orElseGet(() -> Uni.createFrom().item(ended(sid)));
    }

    /** {@link #withSession} for a page about one thing: an id that is not well formed is not found, asked of nobody. */
    Uni<Response> withSession(String sid, boolean wellFormed, String notFound, Function<Session, Uni<Response>> page) {
        return withSession(sid, s -> wellFormed ? page.apply(s) : notFound(s, notFound));
    }

    /** Where a request without a live session goes: the sign-in page, saying why when an access token expired. */
    Response ended(String sid) {
        return sessions.expired(sid) ? Response.seeOther(URI.create("/console/login?ended=expired")).cookie(cookie("", true))
                .header("Cache-Control", "no-store").build() : see("/console/login");
    }

    /** A form post: a session, its CSRF token, and (when the browser sends one) this site's Origin. */
    Uni<Response> withPost(String sid, String csrf, String origin, Function<Session, Uni<Response>> action) {
        return sessions.find(sid).map(s -> {
            if (!ConsoleSessions.csrfMatches(s, csrf) || !sameOrigin(origin)) {
                return formRefused(s);
            }
            return action.apply(s).onFailure(UpstreamUnavailableException.class).recoverWithUni(e -> unreachable(s));
        }).orElseGet(() -> Uni.createFrom().item(ended(sid)));
    }

    /** {@link #withPost} for a form about one thing: an id that is not well formed is not found, asked of nobody. */
    Uni<Response> withPost(String sid, String csrf, String origin, boolean wellFormed, String notFound,
            Function<Session, Uni<Response>> action) {
        return withPost(sid, csrf, origin, s -> wellFormed ? action.apply(s) : notFound(s, notFound));
    }

    boolean sameOrigin(String origin) {
        if (origin == null || origin.isBlank()) {
            return true; // SameSite=Strict keeps the cookie off cross-site posts; the CSRF token is the check
        }
        // the Origin's host and port must be the Host this request was sent to (the gateway and the Ingress keep it)
        String host = headers.getHeaderString("Host");
        try {
            URI o = URI.create(origin);
            return host != null && o.getRawAuthority() != null && host.equalsIgnoreCase(o.getRawAuthority());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    Uni<Response> ok(Session s, UpstreamResponse r, Function<JsonNode, TemplateInstance> page) {
        if (r.status() != 200 || r.body() == null) {
            return failed(s, r);
        }
        return html(200, page.apply(r.body().path("data")));
    }

    /** POSTs {@code body} to {@code path} of the API, then redirects to {@code next} once it accepted; else {@link #failed}. */
    Uni<Response> postThenSee(Session s, Service service, String path, JsonNode body, String next) {
        return api.post(service, s.credential(), path, body).chain(r -> r.ok() ? Uni.createFrom().item(see(next)) : failed(s, r));
    }

    /** An API refusal shown as the API said it (its code and message, escaped); 401 ends the session. */
    Uni<Response> failed(Session s, UpstreamResponse r) {
        if (r.status() == 401) {
            sessions.close(s.id());
            return Uni.createFrom().item(Response.seeOther(URI.create("/console/login")).cookie(cookie("", true)).build());
        }
        JsonNode e = r.body() == null ? null : r.body().path("error");
        String msg = e == null || e.isMissingNode() ? "The platform answered " + r.status() + "."
                : e.path("message").asText() + " (" + e.path("code").asText() + ")";
        int status = r.status() >= 400 && r.status() < 500 ? r.status() : 502;
        return errorPage(status, s, "The platform refused this", msg);
    }

    /** Spent plus reserved of a budget answer, as a plain decimal ("0" when unreadable). */
    static String used(JsonNode budget) {
        if (budget == null) {
            return "0";
        }
        try {
            return new java.math.BigDecimal(budget.path("spent").asText("0")).add(new java.math.BigDecimal(budget.path("reserved").asText("0")))
                    .stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return "0";
        }
    }

    /** An API refusal as one line: its message and code, or its status. */
    static String apiError(UpstreamResponse r) {
        JsonNode e = r.body() == null ? null : r.body().path("error");
        return e == null || !e.isObject() ? "the platform answered " + r.status() + "."
                : e.path("message").asText() + " (" + e.path("code").asText() + ")";
    }

    Uni<Response> notFound(Session s, String message) {
        return errorPage(404, s, "Not found", message);
    }

    /** A form without this session's CSRF token or from another site (no session: the sign-in forms). */
    Uni<Response> formRefused(Session s) {
        return errorPage(403, s, "Refused", "This form has expired or did not come from the console. Go back, reload the page and try again.");
    }

    /** The platform did not answer (after the read's retry): nothing to show but a later try. */
    Uni<Response> unreachable(Session s) {
        return errorPage(503, s, "Try again shortly", "The platform could not be reached just now.");
    }

    /** The console's error page ({@code s} null: signed out, no navigation). */
    Uni<Response> errorPage(int status, Session s, String title, String message) {
        return html(status, error.data("nav", "").data("s", s).data("title", title).data("message", message));
    }

    static Uni<Response> html(int status, TemplateInstance t) {
        return t.createUni().map(h -> Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity(h)
                .header("Cache-Control", "no-store").build());
    }

    static Response see(String path) {
        return Response.seeOther(URI.create(path)).header("Cache-Control", "no-store").build();
    }

    NewCookie cookie(String value, boolean clear) {
        return new NewCookie.Builder(ConsoleSessions.COOKIE).value(value).path("/console").httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT).secure("https".equalsIgnoreCase(uri.getRequestUri().getScheme())
                        || "https".equalsIgnoreCase(headers.getHeaderString("X-Forwarded-Proto")))
                .maxAge(clear ? 0 : -1).build();
    }

    NewCookie loginCookie(String token) {
        return new NewCookie.Builder(LOGIN_COOKIE).value(token).path("/console/login").httpOnly(true)
                .sameSite(NewCookie.SameSite.STRICT).secure("https".equalsIgnoreCase(uri.getRequestUri().getScheme())
                        || "https".equalsIgnoreCase(headers.getHeaderString("X-Forwarded-Proto")))
                .maxAge(-1).build();
    }

    String flash() {
        String f = uri.getQueryParameters().getFirst("flash");
        return f == null ? null : switch (f) {
            case "disputed" -> "Dispute opened.";
            case "evidence" -> "Evidence added. It is anchored on chain shortly.";
            case "redelivered" -> "Queued for delivery now.";
            case "rotated" -> "Secret rotated: the previous one stays valid for the overlap.";
            default -> null;
        };
    }

    /** JSON as the templates read it ({@link JsonView}: absent members are null). */
    Object tree(JsonNode n) {
        return JsonView.of(n);
    }

    String pretty(JsonNode n) {
        try {
            return n.isMissingNode() ? "" : mapper.writerWithDefaultPrettyPrinter().writeValueAsString(n);
        } catch (Exception e) {
            return n.toString();
        }
    }

    /** A list call of the platform API: its first 100 items after the caller's {@code cursor}, filtered by {@code name} when {@code value} is set. */
    private static String listCall(String path, String name, String value, String cursor) {
        return path + "?limit=100" + (value.isEmpty() ? "" : "&" + name + "=" + value)
                + (cursor == null || cursor.isBlank() ? "" : "&cursor=" + enc(cursor));
    }

    /** The console's link to the page after the list answer {@code data}, with the page's {@code filters}; null on the last page. */
    private static String nextPage(String page, String filters, JsonNode data) {
        return data.path("nextCursor").isTextual() ? page + "?" + filters + "cursor=" + enc(data.path("nextCursor").asText()) : null;
    }

    /** One filter of a console page's link ({@code name=value&}), nothing when the filter is not set. */
    private static String filter(String name, String value) {
        return value.isEmpty() ? "" : name + "=" + value + "&";
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
