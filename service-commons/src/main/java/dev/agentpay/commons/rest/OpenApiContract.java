package dev.agentpay.commons.rest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Content;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * What every service's OpenAPI document shares (registered as {@code mp.openapi.filter} in the platform
 * configuration, applied when the document is built): the security schemes, the one error schema
 * {@code ErrorBody} and the error answers of every operation, and the success envelope around each
 * operation's documented {@code data}.
 *
 * <ul>
 * <li>Security schemes {@value #API_KEY} ({@code x-api-key}), {@value #ADMIN_KEY} ({@code x-admin-key}),
 * {@value #X402_PAYMENT} ({@code X-PAYMENT}, x402 v1) and {@value #X402_SIGNATURE}
 * ({@code PAYMENT-SIGNATURE}, x402 v2). An operation's requirement comes from the annotation that enforces
 * it: {@link dev.agentpay.commons.auth.PartnerAuthenticated} and {@link dev.agentpay.commons.auth.AdminOnly}
 * carry {@code @SecurityRequirement}, which SmallRye's scanner reads through them (composed annotations)
 * on a class or a method; the x402 resources name their payment schemes with {@code @SecurityRequirementsSet}.
 * An operation that names none is public ({@code security: []}).</li>
 * <li>Every operation documents {@code 400} (bad input; a NUL in any URL) and {@code 500} (and {@code 401}
 * when it requires a credential, {@code 404} when its path names an id, {@code 413} and {@code 415} when it takes a body, {@code 429} always: the rate limiter
 * answers before any resource) with the {@code ErrorBody} schema, unless it documents that status itself.</li>
 * <li>An operation reading the {@code If-None-Match} header documents {@code 304} (not modified).</li>
 * <li>A 2xx JSON answer documented as the {@code data} type (a component without a {@code success}
 * property, or an array of them) is wrapped in the envelope {@code {success: true, data}} ({@link Envelope}), unless
 * the operation says its answer is bare ({@link #BARE}).</li>
 * </ul>
 */
public class OpenApiContract implements OASFilter {

    public static final String API_KEY = "apiKey";
    public static final String ADMIN_KEY = "adminKey";
    /** OAuth 2.0 client credentials (RFC 6749 §4.4): bearer access tokens from {@value #TOKEN_URL}, scopes {@code Scopes.ALL}. */
    public static final String OAUTH2 = "oauth2";
    public static final String TOKEN_URL = "/oauth/token";
    public static final String X402_PAYMENT = "x402Payment";
    public static final String X402_SIGNATURE = "x402PaymentSignature";
    static final String ERROR_SCHEMA = "ErrorBody";
    /**
     * An operation extension ({@code @Extension(name = OpenApiContract.BARE, value = "true")}) for an answer that is not
     * in the envelope: a standard document (RFC 6749 token, JWK set, the discovery documents). Read and removed here.
     */
    public static final String BARE = "x-agentpay-bare";
    static final String IF_NONE_MATCH = "If-None-Match";
    static final String NOT_MODIFIED = "not modified (If-None-Match matches the ETag)";

    private static final Map<String, String> ERRORS = errors();

    private static Map<String, String> errors() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("400", "Bad input: `invalid_json`, `invalid_body` or `validation_error` naming the field, or an operation's own code");
        m.put("401", "Missing or invalid credential (`unauthorized`; a refused bearer token: `invalid_token`, with `WWW-Authenticate: Bearer error=\"invalid_token\"`)");
        m.put("403", "The credential lacks the operation's scope (`insufficient_scope`; a bearer token also gets "
                + "`WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"...\"`)");
        m.put("404", "Nothing with this id for the caller (`*_not_found`); a malformed id is not found too");
        m.put("413", "Request body over the route's limit (`payload_too_large`)");
        m.put("415", "Body not sent as application/json (`unsupported_media_type`)");
        m.put("429", "Rate limited (`rate_limited`; `Retry-After` says when to retry)");
        m.put("500", "Unexpected failure (`internal_error`; the cause is logged, never sent)");
        m.put("503", "Not available now, retry after `Retry-After` seconds: the service's own database is unavailable "
                + "(`service_unavailable`), or the partner registry is not read yet after a start (`registry_not_ready`)");
        return m;
    }

    @Override
    public void filterOpenAPI(OpenAPI api) {
        Components components = api.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            api.setComponents(components);
        }
        components.addSecurityScheme(API_KEY, header("x-api-key", "A partner's API key (sk_ + 64 hex)."));
        components.addSecurityScheme(OAUTH2, oauth2());
        components.addSecurityScheme(ADMIN_KEY, header("x-admin-key", "The operator key (admin endpoints; not routed publicly)."));
        components.addSecurityScheme(X402_PAYMENT, header("X-PAYMENT", "x402 v1: the base64 payment payload."));
        components.addSecurityScheme(X402_SIGNATURE, header("PAYMENT-SIGNATURE", "x402 v2: the base64 payment payload."));
        components.addSchema(ERROR_SCHEMA, errorSchema());
        anyJsonValue(components);
        Map<String, Schema> schemas = components.getSchemas();
        schemas.forEach(OpenApiContract::envelopeFields);
        schemas.forEach((name, schema) -> nullableOptionals(schema));
        if (api.getPaths() == null || api.getPaths().getPathItems() == null) {
            return;
        }
        for (Map.Entry<String, PathItem> path : api.getPaths().getPathItems().entrySet()) {
            for (Map.Entry<PathItem.HttpMethod, Operation> e : path.getValue().getOperations().entrySet()) {
                if (e.getKey() == PathItem.HttpMethod.OPTIONS) {
                    continue;
                }
                document(e.getValue(), path.getKey().contains("{"), schemas);
                wholeNumberLimits(e.getValue());
            }
        }
    }

    private static void document(Operation op, boolean identified, Map<String, Schema> schemas) {
        if (op.getSecurity() == null) {
            op.setSecurity(new ArrayList<>());
        }
        // a class marked @PartnerAuthenticated and with a scope annotation names the API key twice: once is enough
        List<org.eclipse.microprofile.openapi.models.security.SecurityRequirement> distinct = new ArrayList<>();
        List<Map<String, List<String>>> seen = new ArrayList<>();
        for (var r : op.getSecurity()) {
            Map<String, List<String>> schemes = r.getSchemes() == null ? Map.of() : r.getSchemes();
            if (!seen.contains(schemes)) {
                seen.add(schemes);
                distinct.add(r);
            }
        }
        if (distinct.size() != op.getSecurity().size()) {
            op.setSecurity(distinct);
        }
        APIResponses responses = op.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            op.setResponses(responses);
        }
        // an empty requirement among the alternatives ({}) makes the credential optional (x402: the 402 challenge)
        boolean secured = !op.getSecurity().isEmpty()
                && op.getSecurity().stream().noneMatch(r -> r.getSchemes() == null || r.getSchemes().isEmpty());
        boolean body = op.getRequestBody() != null;
        if (conditional(op) && !responses.hasAPIResponse("304")) {
            responses.addAPIResponse("304", OASFactory.createAPIResponse().description(NOT_MODIFIED));
        }
        for (Map.Entry<String, String> e : ERRORS.entrySet()) {
            String status = e.getKey();
            boolean applies = switch (status) {
                case "401" -> secured;
                case "403" -> scoped(op);
                case "404" -> identified;
                case "413", "415" -> body;
                default -> true;
            };
            if (applies && !responses.hasAPIResponse(status)) {
                responses.addAPIResponse(status, error(e.getValue()));
            }
        }
        // SmallRye copies a method's @Extension onto the operation, its request body, its responses object and each response: read it
        // from any of them and remove every copy (a client generator takes a member of `responses` for a response)
        boolean bare = op.getExtensions() != null && op.getExtensions().containsKey(BARE);
        op.removeExtension(BARE);
        if (responses.getExtensions() != null && responses.getExtensions().containsKey(BARE)) {
            bare = true;
            responses.removeExtension(BARE);
        }
        if (responses.getAPIResponses() != null) {
            for (APIResponse r : responses.getAPIResponses().values()) {
                if (r.getExtensions() != null && r.getExtensions().containsKey(BARE)) {
                    bare = true;
                    r.removeExtension(BARE);
                }
            }
        }
        if (op.getRequestBody() != null && op.getRequestBody().getExtensions() != null) {
            op.getRequestBody().removeExtension(BARE);
        }
        if (responses.getAPIResponses() != null) {
            for (Map.Entry<String, APIResponse> e : responses.getAPIResponses().entrySet()) {
                if (e.getKey().startsWith("2") && !bare) {
                    envelope(e.getValue(), schemas);
                } else if (e.getKey().startsWith("4") || e.getKey().startsWith("5")) {
                    errorContent(e.getValue());
                }
            }
        }
    }

    /**
     * A Jackson tree ({@code JsonNode}) is any JSON value: the scanner would describe the class's bean getters
     * ({@code empty}, {@code nodeType}, ...) as an object instead.
     */
    private static void anyJsonValue(Components components) {
        if (components.getSchemas() == null || !components.getSchemas().containsKey("JsonNode")) {
            return;
        }
        components.addSchema("JsonNode", OASFactory.createSchema().description("any JSON value"));
        components.removeSchema("JsonNodeType");
        // a property annotated with @Schema(type = ...) keeps that type beside the reference: the value decides
        for (Schema schema : components.getSchemas().values()) {
            if (schema != null && schema.getProperties() != null) {
                for (Schema property : schema.getProperties().values()) {
                    if (property != null && property.getRef() != null && property.getRef().endsWith("/JsonNode")) {
                        property.setType(null);
                        property.setItems(null);
                    }
                }
            }
        }
    }

    /**
     * An {@link Envelope} of a typed answer ({@code EnvelopeSubscriptionView}, ...): {@code success} is always
     * {@code true} and both fields are always there (the record's components would otherwise read as optional
     * and nullable).
     */
    private static void envelopeFields(String name, Schema schema) {
        if (!name.startsWith("Envelope") || schema == null || schema.getProperties() == null
                || !schema.getProperties().keySet().equals(java.util.Set.of("success", "data"))) {
            return;
        }
        schema.setRequired(new ArrayList<>(List.of("success", "data")));
        schema.addProperty("success", OASFactory.createSchema().addType(SchemaType.BOOLEAN).addEnumeration(true));
    }

    /**
     * The {@code limit} query parameter of list endpoints ({@link PageLimit}) is bound as text so that a bad value
     * is a {@code 400 validation_error}, not a 404; clients send a whole number: documented as an integer from 1
     * (the endpoint's maximum is in its description), not as a string with a pattern.
     */
    private static void wholeNumberLimits(Operation op) {
        if (op.getParameters() == null) {
            return;
        }
        for (Parameter p : op.getParameters()) {
            Schema s = p.getSchema();
            if (p.getIn() == Parameter.In.QUERY && s != null && PageLimit.WHOLE_NUMBER.equals(s.getPattern())) {
                p.setSchema(OASFactory.createSchema().addType(SchemaType.INTEGER).minimum(java.math.BigDecimal.ONE)
                        .maximum(s.getMaximum()));
            }
        }
    }

    /** Whether the operation takes an OAuth 2.0 token with a scope (its credential can lack that scope). */
    private static boolean scoped(Operation op) {
        return op.getSecurity().stream().anyMatch(r -> r.getSchemes() != null && r.getSchemes().containsKey(OAUTH2)
                && r.getSchemes().get(OAUTH2) != null && !r.getSchemes().get(OAUTH2).isEmpty());
    }

    private static SecurityScheme oauth2() {
        Map<String, String> scopes = new LinkedHashMap<>(dev.agentpay.commons.auth.Scopes.ALL);
        return OASFactory.createSecurityScheme().type(SecurityScheme.Type.OAUTH2)
                .description("OAuth 2.0 client credentials (RFC 6749 §4.4): POST " + TOKEN_URL + " with the client's id and "
                        + "secret (client_secret_basic or client_secret_post) for a JWT access token (ES256, at most 15 minutes); "
                        + "send it as `Authorization: Bearer <token>`. Keys: /.well-known/jwks.json; metadata: "
                        + "/.well-known/oauth-authorization-server. Each operation names the scope it needs.")
                .flows(OASFactory.createOAuthFlows().clientCredentials(OASFactory.createOAuthFlow()
                        .tokenUrl(TOKEN_URL).scopes(scopes)));
    }

    /** Whether the operation reads {@code If-None-Match}: it answers 304 when the caller holds the current version. */
    private static boolean conditional(Operation op) {
        return op.getParameters() != null && op.getParameters().stream().anyMatch(p -> p.getIn() == Parameter.In.HEADER
                && IF_NONE_MATCH.equalsIgnoreCase(p.getName()));
    }

    /**
     * The services write an absent optional value as {@code null} (a mandate not yet signed has
     * {@code "counterparty_signature": null}): a property that is not required also admits null, so that
     * real answers validate against the document.
     */
    private static void nullableOptionals(Schema schema) {
        if (schema == null || schema.getProperties() == null) {
            return;
        }
        List<String> required = schema.getRequired() == null ? List.of() : schema.getRequired();
        Map<String, Schema> properties = new LinkedHashMap<>(schema.getProperties());
        for (Map.Entry<String, Schema> p : properties.entrySet()) {
            Schema property = p.getValue();
            if (required.contains(p.getKey()) || property == null) {
                continue;
            }
            if (property.getRef() != null) {
                schema.addProperty(p.getKey(), OASFactory.createSchema().anyOf(new ArrayList<>(List.of(
                        OASFactory.createSchema().ref(property.getRef()), OASFactory.createSchema().addType(SchemaType.NULL)))));
            } else if (property.getType() != null && !property.getType().isEmpty() && !property.getType().contains(SchemaType.NULL)) {
                property.addType(SchemaType.NULL);
            }
            nullableOptionals(property);
            nullableOptionals(property.getItems());
        }
    }

    /** A 4xx/5xx documented without content (a bare {@code @APIResponse}) answers the error schema. */
    private static void errorContent(APIResponse r) {
        if (r.getRef() == null && (r.getContent() == null || r.getContent().getMediaTypes() == null
                || r.getContent().getMediaTypes().isEmpty())) {
            r.setContent(OASFactory.createContent().addMediaType("application/json",
                    OASFactory.createMediaType().schema(OASFactory.createSchema().ref(ERROR_SCHEMA))));
        }
    }

    private static void envelope(APIResponse r, Map<String, Schema> schemas) {
        Content content = r.getContent();
        if (content == null || content.getMediaTypes() == null) {
            return;
        }
        MediaType json = content.getMediaType("application/json");
        if (json == null || json.getSchema() == null) {
            return;
        }
        Schema s = json.getSchema();
        if (isEnvelope(s, schemas) || !isData(s)) {
            return;
        }
        json.setSchema(OASFactory.createSchema().addType(SchemaType.OBJECT)
                .addRequired("success").addRequired("data")
                .addProperty("success", OASFactory.createSchema().addType(SchemaType.BOOLEAN).addEnumeration(true))
                .addProperty("data", s));
    }

    /** A reference to a component, or an array of them: what an operation documents as its data. */
    private static boolean isData(Schema s) {
        return s.getRef() != null || (s.getItems() != null && s.getItems().getRef() != null);
    }

    private static boolean isEnvelope(Schema s, Map<String, Schema> schemas) {
        Schema target = s;
        if (s.getRef() != null && schemas != null) {
            String ref = s.getRef();
            target = schemas.get(ref.substring(ref.lastIndexOf('/') + 1));
        }
        return target != null && target.getProperties() != null && target.getProperties().containsKey("success");
    }

    private static APIResponse error(String description) {
        return OASFactory.createAPIResponse().description(description)
                .content(OASFactory.createContent().addMediaType("application/json",
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref(ERROR_SCHEMA))));
    }

    private static SecurityScheme header(String name, String description) {
        return OASFactory.createSecurityScheme().type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                .name(name).description(description);
    }

    private static Schema errorSchema() {
        Schema detail = OASFactory.createSchema().addType(SchemaType.OBJECT).addRequired("code").addRequired("message")
                .addProperty("code", OASFactory.createSchema().addType(SchemaType.STRING)
                        .description("stable machine-readable code, e.g. validation_error").examples(List.of("validation_error")))
                .addProperty("message", OASFactory.createSchema().addType(SchemaType.STRING)
                        .description("what was wrong; names the field for bad input").examples(List.of("amount: must be greater than 0")));
        return OASFactory.createSchema().addType(SchemaType.OBJECT)
                .description("The one error envelope of every service (service-commons ErrorBody).")
                .addRequired("success").addRequired("error")
                .addProperty("success", OASFactory.createSchema().addType(SchemaType.BOOLEAN).addEnumeration(false))
                .addProperty("error", detail);
    }
}
