package dev.agentpay.commons.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.openapi.api.SmallRyeOpenAPI;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.jboss.jandex.Index;
import org.junit.jupiter.api.Test;

class OpenApiContractTest {

    private static Operation op(String dataRef) {
        return OASFactory.createOperation().responses(OASFactory.createAPIResponses().addAPIResponse("200",
                OASFactory.createAPIResponse().description("ok").content(OASFactory.createContent().addMediaType("application/json",
                        OASFactory.createMediaType().schema(OASFactory.createSchema().ref(dataRef))))));
    }

    @Test
    void everyOperationGetsTheErrorAnswersTheEnvelopeAndItsSecurity() {
        Operation keyed = op("Thing").requestBody(OASFactory.createRequestBody())
                .security(List.of(OASFactory.createSecurityRequirement().addScheme(OpenApiContract.API_KEY)));
        Operation paid = op("Thing").security(List.of(OASFactory.createSecurityRequirement(),
                OASFactory.createSecurityRequirement().addScheme(OpenApiContract.X402_PAYMENT)));
        Operation open = op("Wrapped");
        Operation scoped = op("Thing").security(List.of(OASFactory.createSecurityRequirement().addScheme(OpenApiContract.API_KEY),
                OASFactory.createSecurityRequirement().addScheme(OpenApiContract.OAUTH2, List.of("mandates:read"))));
        Operation conditional = op("Thing").addParameter(OASFactory.createParameter().in(
                org.eclipse.microprofile.openapi.models.parameters.Parameter.In.HEADER).name("If-None-Match"));
        OpenAPI api = OASFactory.createOpenAPI()
                .components(OASFactory.createComponents()
                        .addSchema("Thing", OASFactory.createSchema().addType(SchemaType.OBJECT).addRequired("id")
                                .addProperty("id", OASFactory.createSchema().addType(SchemaType.STRING))
                                .addProperty("note", OASFactory.createSchema().addType(SchemaType.STRING))
                                .addProperty("other", OASFactory.createSchema().ref("Wrapped")))
                        .addSchema("Wrapped", OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("success", OASFactory.createSchema().addType(SchemaType.BOOLEAN))))
                .paths(OASFactory.createPaths()
                        .addPathItem("/things/{id}", OASFactory.createPathItem().POST(keyed))
                        .addPathItem("/pay", OASFactory.createPathItem().POST(paid))
                        .addPathItem("/open", OASFactory.createPathItem().GET(open))
                        .addPathItem("/scoped", OASFactory.createPathItem().GET(scoped))
                        .addPathItem("/doc", OASFactory.createPathItem().GET(conditional)));

        new OpenApiContract().filterOpenAPI(api);

        assertThat(keyed.getResponses().getAPIResponses()).containsOnlyKeys("200", "400", "401", "404", "413", "415", "429", "500", "503");
        assertThat(keyed.getResponses().getAPIResponse("401").getContent().getMediaType("application/json").getSchema().getRef())
                .isEqualTo("#/components/schemas/ErrorBody");
        Schema envelope = keyed.getResponses().getAPIResponse("200").getContent().getMediaType("application/json").getSchema();
        assertThat(envelope.getRequired()).containsExactly("success", "data");
        assertThat(envelope.getProperties().get("data").getRef()).isEqualTo("#/components/schemas/Thing");
        assertThat(paid.getResponses().getAPIResponses()).containsOnlyKeys("200", "400", "429", "500", "503");
        assertThat(open.getSecurity()).isEmpty();
        assertThat(open.getResponses().getAPIResponses()).doesNotContainKey("304");
        assertThat(conditional.getResponses().getAPIResponse("304").getDescription())
                .isEqualTo("not modified (If-None-Match matches the ETag)");
        assertThat(conditional.getResponses().getAPIResponse("304").getContent()).as("a 304 has no body").isNull();
        assertThat(open.getResponses().getAPIResponse("200").getContent().getMediaType("application/json").getSchema().getRef())
                .as("an answer documented with its envelope is left alone").isEqualTo("#/components/schemas/Wrapped");
        Schema thing = api.getComponents().getSchemas().get("Thing");
        assertThat(thing.getProperties().get("id").getType()).containsExactly(SchemaType.STRING);
        assertThat(thing.getProperties().get("note").getType()).containsExactly(SchemaType.STRING, SchemaType.NULL);
        assertThat(thing.getProperties().get("other").getAnyOf()).hasSize(2);
        assertThat(api.getComponents().getSecuritySchemes()).containsOnlyKeys(OpenApiContract.API_KEY, OpenApiContract.ADMIN_KEY,
                OpenApiContract.OAUTH2, OpenApiContract.X402_PAYMENT, OpenApiContract.X402_SIGNATURE);
        // OAuth 2.0: the client credentials flow with every scope; a scoped operation can answer 403 insufficient_scope
        var flow = api.getComponents().getSecuritySchemes().get(OpenApiContract.OAUTH2).getFlows().getClientCredentials();
        assertThat(flow.getTokenUrl()).isEqualTo("/oauth/token");
        assertThat(flow.getScopes()).containsOnlyKeys(dev.agentpay.commons.auth.Scopes.ALL.keySet().toArray(String[]::new));
        assertThat(scoped.getResponses().getAPIResponses()).containsKeys("401", "403");
        assertThat(scoped.getResponses().getAPIResponse("403").getDescription()).contains("insufficient_scope");
        assertThat(keyed.getResponses().getAPIResponses()).as("no scope, no 403").doesNotContainKey("403");
        assertThat(api.getComponents().getSchemas()).containsKey("ErrorBody");
    }

    @Test
    void aBareAnswerIsNotWrapped() {
        Operation bare = op("Thing").addExtension(OpenApiContract.BARE, "true");
        OpenAPI api = OASFactory.createOpenAPI()
                .components(OASFactory.createComponents().addSchema("Thing", OASFactory.createSchema().addType(SchemaType.OBJECT)))
                .paths(OASFactory.createPaths().addPathItem("/token", OASFactory.createPathItem().POST(bare)));

        new OpenApiContract().filterOpenAPI(api);

        assertThat(bare.getResponses().getAPIResponse("200").getContent().getMediaType("application/json").getSchema().getRef())
                .isEqualTo("#/components/schemas/Thing");
        assertThat(bare.getExtensions()).as("the marker is not in the document").doesNotContainKey(OpenApiContract.BARE);
    }

    @Test
    void aBareMarkerCopiedOntoTheResponsesAndTheBodyIsReadAndRemovedEverywhere() {
        // what SmallRye builds from a method's @Extension: a copy on the request body, the responses and each response
        Operation bare = op("Thing").requestBody(OASFactory.createRequestBody().addExtension(OpenApiContract.BARE, "true"));
        bare.getResponses().addExtension(OpenApiContract.BARE, "true");
        bare.getResponses().getAPIResponse("200").addExtension(OpenApiContract.BARE, "true");
        OpenAPI api = OASFactory.createOpenAPI()
                .components(OASFactory.createComponents().addSchema("Thing", OASFactory.createSchema().addType(SchemaType.OBJECT)))
                .paths(OASFactory.createPaths().addPathItem("/token", OASFactory.createPathItem().POST(bare)));

        new OpenApiContract().filterOpenAPI(api);

        assertThat(bare.getResponses().getAPIResponse("200").getContent().getMediaType("application/json").getSchema().getRef())
                .as("read from the copies: not wrapped").isEqualTo("#/components/schemas/Thing");
        assertThat(bare.getResponses().getExtensions()).as("no member of responses but responses").isNullOrEmpty();
        assertThat(bare.getResponses().getAPIResponse("200").getExtensions()).isNullOrEmpty();
        assertThat(bare.getRequestBody().getExtensions()).isNullOrEmpty();
    }

    @Test
    void envelopesAreRequiredLimitsAreIntegersAndJacksonTreesAreAnyValue() {
        Operation list = op("Thing").addParameter(OASFactory.createParameter()
                .in(org.eclipse.microprofile.openapi.models.parameters.Parameter.In.QUERY).name("limit")
                .schema(OASFactory.createSchema().addType(SchemaType.STRING).pattern(PageLimit.WHOLE_NUMBER)));
        OpenAPI api = OASFactory.createOpenAPI()
                .components(OASFactory.createComponents()
                        .addSchema("Thing", OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("value", OASFactory.createSchema().ref("JsonNode").addType(SchemaType.OBJECT)))
                        .addSchema("JsonNode", OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("nodeType", OASFactory.createSchema().ref("JsonNodeType")))
                        .addSchema("JsonNodeType", OASFactory.createSchema().addType(SchemaType.STRING))
                        .addSchema("EnvelopeThing", OASFactory.createSchema().addType(SchemaType.OBJECT)
                                .addProperty("success", OASFactory.createSchema().addType(SchemaType.BOOLEAN))
                                .addProperty("data", OASFactory.createSchema().ref("Thing"))))
                .paths(OASFactory.createPaths().addPathItem("/things", OASFactory.createPathItem().GET(list)));

        new OpenApiContract().filterOpenAPI(api);

        Schema envelope = api.getComponents().getSchemas().get("EnvelopeThing");
        assertThat(envelope.getRequired()).containsExactly("success", "data");
        assertThat(envelope.getProperties().get("success").getType()).containsExactly(SchemaType.BOOLEAN);
        assertThat(envelope.getProperties().get("success").getEnumeration()).containsExactly(true);
        assertThat(envelope.getProperties().get("data").getRef()).as("not made nullable").isEqualTo("#/components/schemas/Thing");
        Schema limit = list.getParameters().get(0).getSchema();
        assertThat(limit.getType()).containsExactly(SchemaType.INTEGER);
        assertThat(limit.getPattern()).isNull();
        assertThat(limit.getMinimum()).isEqualByComparingTo("1");
        assertThat(api.getComponents().getSchemas().get("JsonNode").getType()).as("any JSON value").isNull();
        assertThat(api.getComponents().getSchemas().get("JsonNode").getProperties()).isNull();
        assertThat(api.getComponents().getSchemas()).doesNotContainKey("JsonNodeType");
        assertThat(api.getComponents().getSchemas().get("Thing").getProperties().get("value").getType())
                .as("a type beside the reference to any value is dropped").isNull();
    }

    @Path("/keyed")
    @PartnerAuthenticated
    static class KeyedResource {
        @GET
        public String list() {
            return "";
        }

        @POST
        @Path("{id: [0-9]+}")
        public String update(@PathParam("id") String id) {
            return "";
        }
    }

    @Path("/admin")
    @AdminOnly
    static class AdminResource {
        @GET
        public String view() {
            return "";
        }
    }

    @Path("/mixed")
    static class MixedResource {
        @GET
        public String open() {
            return "";
        }

        @POST
        @AdminOnly
        public String operate() {
            return "";
        }
    }

    /**
     * The document's security comes from the annotations that enforce it: Quarkus builds the document with
     * SmallRye's JAX-RS scanner, which reads the {@code @SecurityRequirement} that {@link PartnerAuthenticated}
     * and {@link AdminOnly} carry (a composed annotation), on a class or on a method.
     */
    @Test
    void theAuthAnnotationsDocumentTheSecurityTheyEnforce() throws Exception {
        OpenAPI api = SmallRyeOpenAPI.builder()
                .withConfig(new SmallRyeConfigBuilder().build())
                .withIndex(Index.of(KeyedResource.class, AdminResource.class, MixedResource.class,
                        PartnerAuthenticated.class, AdminOnly.class))
                .enableModelReader(false).enableStandardStaticFiles(false).enableStandardFilter(false)
                .addFilter(new OpenApiContract())
                .build().model();

        Map<String, org.eclipse.microprofile.openapi.models.PathItem> paths = api.getPaths().getPathItems();
        assertThat(paths).containsOnlyKeys("/keyed", "/keyed/{id}", "/admin", "/mixed");
        assertThat(schemes(paths.get("/keyed").getGET())).containsExactly(List.of(OpenApiContract.API_KEY));
        assertThat(schemes(paths.get("/keyed/{id}").getPOST())).as("a class-level annotation covers every method")
                .containsExactly(List.of(OpenApiContract.API_KEY));
        assertThat(schemes(paths.get("/admin").getGET())).containsExactly(List.of(OpenApiContract.ADMIN_KEY));
        assertThat(schemes(paths.get("/mixed").getPOST())).as("a method-level annotation secures that method")
                .containsExactly(List.of(OpenApiContract.ADMIN_KEY));
        assertThat(paths.get("/mixed").getGET().getSecurity()).as("an unannotated method is public").isEmpty();
        assertThat(paths.get("/mixed").getGET().getResponses().getAPIResponses()).doesNotContainKey("401");
        assertThat(paths.get("/mixed").getPOST().getResponses().getAPIResponses()).containsKey("401");
        assertThat(paths.get("/keyed").getGET().getResponses().getAPIResponses()).containsKey("401");
    }

    private static List<List<String>> schemes(Operation op) {
        return op.getSecurity().stream().map(SecurityRequirement::getSchemes).map(s -> List.copyOf(s.keySet())).toList();
    }
}
