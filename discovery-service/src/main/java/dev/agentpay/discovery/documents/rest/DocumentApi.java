package dev.agentpay.discovery.documents.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The shapes of the discovery documents, for the OpenAPI document only (the documents are built as JSON trees by
 * {@code DocumentService} and served as stored bytes). Every test that reads the manifest checks it against this
 * schema (deploy/local's {@code OpenApiContractFilter}), so a field added to the manifest must be named here.
 */
public final class DocumentApi {

    private DocumentApi() {
    }

    @Schema(name = "DiscoveryManifest", description = "Tier 0 of discovery: who this is, its versions, where the sections,"
            + " reference documents, MCP server, authentication schemes and prices are (`discovery-service` README).")
    public record Manifest(
            @JsonProperty("manifest_version") @Schema(required = true) String manifestVersion,
            @Schema(required = true) String name,
            @Schema(required = true) String title,
            @Schema(required = true) String description,
            @JsonProperty("base_url") @Schema(required = true) String baseUrl,
            @Schema(required = true) Versions versions,
            @Schema(required = true, description = "what each tier holds, by tier number") Map<String, String> tiers,
            @Schema(required = true) List<Section> sections,
            @Schema(required = true) List<Reference> reference,
            @Schema(required = true) Mcp mcp,
            @Schema(required = true) Auth auth,
            @Schema(required = true) Pricing pricing,
            @Schema(required = true, description = "URL of the latest published benchmark") String benchmark,
            @JsonProperty("agent_card") @Schema(required = true) String agentCard,
            @JsonProperty("llms_txt") @Schema(required = true) String llmsTxt) {
    }

    @Schema(name = "DiscoveryManifestVersions")
    public record Versions(
            @JsonProperty("proto_version") @Schema(required = true, examples = "0.2") String protoVersion,
            @JsonProperty("proto_versions") @Schema(required = true) List<String> protoVersions,
            @JsonProperty("service_version") @Schema(required = true) String serviceVersion,
            @Schema(required = true, examples = "/v1") String api,
            @JsonProperty("mcp_protocol_versions") @Schema(required = true) List<String> mcpProtocolVersions) {
    }

    @Schema(name = "DiscoveryManifestSection", description = "a tier-1 section: tool schemas, types, prices, examples")
    public record Section(@Schema(required = true) String name, @Schema(required = true) String title,
            @Schema(required = true) String url, @Schema(required = true, description = "the MCP tools it describes") List<String> tools) {
    }

    @Schema(name = "DiscoveryManifestReference", description = "a tier-3 reference document")
    public record Reference(@Schema(required = true) String name, @Schema(required = true) String title,
            @Schema(required = true) String url, @JsonProperty("media_type") @Schema(required = true) String mediaType) {
    }

    @Schema(name = "DiscoveryManifestMcp")
    public record Mcp(@Schema(required = true) String endpoint,
            @Schema(required = true, examples = "streamable-http") String transport,
            @Schema(required = true) boolean stateless,
            @JsonProperty("initialize_required") @Schema(required = true) boolean initializeRequired,
            @Schema(required = true, description = "the tool names") List<String> tools) {
    }

    @Schema(name = "DiscoveryManifestAuth")
    public record Auth(@JsonProperty("keys_from") @Schema(required = true, description = "where partners get keys") String keysFrom,
            @Schema(required = true) List<AuthScheme> schemes) {
    }

    @Schema(name = "DiscoveryManifestAuthScheme", description = "one way to authenticate, and what it applies to")
    public record AuthScheme(
            @Schema(required = true, enumeration = {"none", "api_key", "oauth2", "x402", "admin"}) String name,
            @JsonProperty("applies_to") @Schema(required = true) String appliesTo,
            String header,
            String format,
            @JsonProperty("mcp_argument") @Schema(description = "the MCP tool argument carrying the credential") String mcpArgument,
            String flow,
            @JsonProperty("token_endpoint") String tokenEndpoint,
            String metadata,
            @JsonProperty("protected_resource_metadata") String protectedResourceMetadata,
            @JsonProperty("jwks_uri") String jwksUri,
            List<String> scopes,
            String reference,
            @JsonProperty("body_schema") String bodySchema) {
    }

    @Schema(name = "DiscoveryManifestPricing")
    public record Pricing(@Schema(required = true) String url, @Schema(required = true, examples = "pay-per-call") String model,
            @Schema(required = true, examples = "USDC") String currency,
            @JsonProperty("trust_signals") @Schema(required = true) String trustSignals) {
    }

    /** A JSON document whose members are its own (an A2A agent card, a section, a benchmark, an OpenAPI document). */
    @Schema(name = "JsonDocument", type = SchemaType.OBJECT, additionalProperties = Schema.True.class,
            description = "a JSON object; its members are described by the document it is (see the operation)")
    public record JsonDocument() {
    }
}
