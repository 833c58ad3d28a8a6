package dev.agentpay.commons.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
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
                        .addPathItem("/doc", OASFactory.createPathItem().GET(conditional)));

        new OpenApiContract().filterOpenAPI(api);

        assertThat(keyed.getResponses().getAPIResponses()).containsOnlyKeys("200", "400", "401", "404", "413", "415", "429", "500");
        assertThat(keyed.getResponses().getAPIResponse("401").getContent().getMediaType("application/json").getSchema().getRef())
                .isEqualTo("#/components/schemas/ErrorBody");
        Schema envelope = keyed.getResponses().getAPIResponse("200").getContent().getMediaType("application/json").getSchema();
        assertThat(envelope.getRequired()).containsExactly("success", "data");
        assertThat(envelope.getProperties().get("data").getRef()).isEqualTo("#/components/schemas/Thing");
        assertThat(paid.getResponses().getAPIResponses()).containsOnlyKeys("200", "400", "429", "500");
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
                OpenApiContract.X402_PAYMENT, OpenApiContract.X402_SIGNATURE);
        assertThat(api.getComponents().getSchemas()).containsKey("ErrorBody");
    }
}
