package dev.agentpay.discovery.documents.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.catalog.domain.Catalog;
import dev.agentpay.discovery.config.DiscoveryConfig;
import dev.agentpay.discovery.documents.domain.DocumentPaths;
import dev.agentpay.discovery.documents.domain.StaticDocument;
import dev.agentpay.discovery.mcp.domain.McpProtocol;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * Renders every document of the discovery surface from the {@link Catalog}: the Tier 0 manifest, the
 * Tier 1 sections (tool schemas, prices, examples), the Tier 3 references, the A2A agent card and
 * llms.txt; and the MCP tool descriptors the tool server lists. Static documents are rendered once at
 * start into the {@link DocumentStore}.
 */
@Startup
@ApplicationScoped
public class DocumentService {

    public static final String JSON = "application/json";

    @Inject
    Catalog catalog;

    @Inject
    DiscoveryConfig config;

    @Inject
    ObjectMapper mapper;

    @Inject
    DocumentStore store;

    @PostConstruct
    void renderStatic() {
        store.put(DocumentPaths.MANIFEST, json(manifest()));
        store.put(DocumentPaths.AGENT_CARD, json(agentCard()));
        store.put(DocumentPaths.LLMS_TXT, StaticDocument.of(llmsTxt(), "text/plain; charset=utf-8"));
        for (ObjectNode s : catalog.sections()) {
            String name = s.get("name").asText();
            if (!DocumentPaths.TRUST_SIGNALS.equals(name)) {
                store.put(DocumentPaths.section(name), json(section(name)));
            }
        }
        for (JsonNode r : catalog.references()) {
            String name = r.get("name").asText();
            store.put(DocumentPaths.reference(name), StaticDocument.of(resource("discovery/reference/" + name),
                    r.get("media_type").asText(), StaticDocument.PUBLIC_5_MIN));
        }
    }

    /** Absolute URL of a path on the public base URL. */
    public String url(String path) {
        return config.publicBaseUrl().replaceAll("/+$", "") + path;
    }

    /** Adds the manifest's entry for a catalog document ({@code name}, {@code title}, {@code url}) to {@code list}. */
    private ObjectNode listed(ArrayNode list, JsonNode doc, String path) {
        ObjectNode e = list.addObject();
        e.put("name", doc.get("name").asText());
        e.put("title", doc.get("title").asText());
        e.put("url", url(path));
        return e;
    }

    // ---- MCP tool descriptors -------------------------------------------------------------------

    /** The tool as MCP's {@code tools/list} describes it. */
    public ObjectNode mcpTool(ObjectNode t) {
        ObjectNode n = mapper.createObjectNode();
        n.put("name", t.get("name").asText());
        n.put("title", t.get("title").asText());
        n.put("description", t.get("description").asText());
        n.set("inputSchema", t.get("inputSchema").deepCopy());
        if (t.has("outputSchema")) {
            n.set("outputSchema", t.get("outputSchema").deepCopy());
        }
        n.set("annotations", t.get("annotations").deepCopy());
        return n;
    }

    public ArrayNode mcpTools() {
        ArrayNode tools = mapper.createArrayNode();
        catalog.tools().forEach(t -> tools.add(mcpTool(t)));
        return tools;
    }

    // ---- Tier 0 -----------------------------------------------------------------------------------

    ObjectNode manifest() {
        JsonNode svc = catalog.service();
        ObjectNode m = mapper.createObjectNode();
        m.put("manifest_version", svc.get("manifest_version").asText());
        m.put("name", svc.get("name").asText());
        m.put("title", svc.get("title").asText());
        m.put("description", svc.get("description").asText());
        m.put("base_url", url(""));
        ObjectNode versions = m.putObject("versions");
        // the label mandates carry (Mandate.proto_version: "0.1", "0.2" for v0.2 schemes), not "v0.1":
        // the EIP-712 typed data signs protoVersion, so the stored form is the one that stays
        versions.put("proto_version", svc.get("proto_version").asText());
        versions.set("proto_versions", svc.get("proto_versions").deepCopy());
        versions.put("service_version", svc.get("service_version").asText());
        versions.put("api", "/v1");
        ArrayNode mcpVersions = versions.putArray("mcp_protocol_versions");
        McpProtocol.SUPPORTED_VERSIONS.forEach(mcpVersions::add);

        ObjectNode tiers = m.putObject("tiers");
        tiers.put("0", "this manifest");
        tiers.put("1", "sections: tool schemas, input and output types, prices, examples");
        tiers.put("3", "reference: state machines and deep dives");

        ArrayNode sections = m.putArray("sections");
        for (ObjectNode s : catalog.sections()) {
            listed(sections, s, DocumentPaths.section(s.get("name").asText())).set("tools", s.get("tools").deepCopy());
        }
        ArrayNode refs = m.putArray("reference");
        for (JsonNode r : catalog.references()) {
            listed(refs, r, DocumentPaths.reference(r.get("name").asText())).put("media_type", r.get("media_type").asText());
        }

        ObjectNode mcp = m.putObject("mcp");
        mcp.put("endpoint", url(DocumentPaths.MCP));
        mcp.put("transport", "streamable-http");
        mcp.put("stateless", true);
        mcp.put("initialize_required", false);
        ArrayNode toolNames = mcp.putArray("tools");
        catalog.tools().forEach(t -> toolNames.add(t.get("name").asText()));

        ObjectNode auth = m.putObject("auth");
        auth.put("keys_from", SupportEmail.require(config.supportEmail()));
        ArrayNode schemes = auth.putArray("schemes");
        schemes.addObject().put("name", "none")
                .put("applies_to", "discovery documents, GET /v1/public/mandates/{id} and /proof, GET /v1/invoices/{id}/pay (an invoice's state; the id is the capability), tools/list, service_query_mandate, service_verify_mandate, service_get_pricing, service_get_trust_signals");
        schemes.addObject().put("name", "api_key").put("header", "x-api-key").put("format", "sk_ followed by 64 lowercase hex")
                .put("mcp_argument", "api_key")
                .put("applies_to", "/v1/mandates/**, /v1/invoices/** (except /v1/invoices/{id}/pay), /v1/webhooks, service_dispute_open, service_dispute_add_evidence, service_dispute_status, service_charge_mandate");
        ObjectNode oauth = schemes.addObject().put("name", "oauth2").put("flow", "client_credentials")
                .put("header", "Authorization").put("format", "Bearer <JWT access token, ES256, at most 15 minutes>")
                .put("token_endpoint", url("/oauth/token"))
                .put("metadata", url("/.well-known/oauth-authorization-server"))
                .put("protected_resource_metadata", url("/.well-known/oauth-protected-resource"))
                .put("jwks_uri", url("/.well-known/jwks.json"))
                .put("mcp_argument", "access_token")
                .put("applies_to", "wherever api_key applies, per scope (each operation's scope: /openapi.json); "
                        + "service_dispute_open and service_dispute_add_evidence need disputes:write, service_dispute_status mandates:read (the token "
                        + "may also be the MCP request's Authorization header)")
                .put("reference", url(DocumentPaths.reference("authentication.md")));
        ArrayNode scopes = oauth.putArray("scopes");
        dev.agentpay.commons.auth.Scopes.ALL.keySet().forEach(scopes::add);
        schemes.addObject().put("name", "x402").put("header", "X-PAYMENT").put("format", "base64 x402 payment proof")
                .put("mcp_argument", "x_payment")
                .put("applies_to", "/api/x402/invoice, /api/x402/settle, POST /v1/invoices/{id}/pay, service_create_invoice, service_settle_invoice, service_pay_invoice")
                .put("reference", url(DocumentPaths.reference("x402-flow.md")));
        schemes.addObject().put("name", "admin").put("header", "x-admin-key")
                .put("applies_to", "POST " + DocumentPaths.BENCHMARK_PUBLISH)
                .put("body_schema", url(DocumentPaths.reference("benchmark-publish.schema.json")));

        ObjectNode pricing = m.putObject("pricing");
        pricing.put("url", url(DocumentPaths.section(DocumentPaths.PRICING)));
        pricing.put("model", "pay-per-call");
        pricing.put("currency", "USDC");
        pricing.put("trust_signals", url(DocumentPaths.section(DocumentPaths.TRUST_SIGNALS)));
        m.put("benchmark", url(DocumentPaths.BENCHMARK));
        m.put("agent_card", url(DocumentPaths.AGENT_CARD));
        m.put("llms_txt", url(DocumentPaths.LLMS_TXT));
        return m;
    }

    // ---- Tier 1 -----------------------------------------------------------------------------------

    /** A section as published (trust_signals gets its metrics from {@link #trustSignals}). */
    public ObjectNode section(String name) {
        ObjectNode s = catalog.sections().stream().filter(x -> x.get("name").asText().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no section " + name));
        ObjectNode out = mapper.createObjectNode();
        out.put("name", name);
        out.put("title", s.get("title").asText());
        out.put("description", s.get("description").asText());
        out.put("manifest", url(DocumentPaths.MANIFEST));
        if (DocumentPaths.PRICING.equals(name)) {
            addPricing(out);
        }
        for (String k : List.of("flow", "types", "rest", "states", "errors")) {
            if (s.has(k)) {
                out.set(k, s.get(k).deepCopy());
            }
        }
        ArrayNode tools = out.putArray("mcp_tools");
        s.get("tools").forEach(n -> tools.add(sectionTool(catalog.tool(n.asText()).orElseThrow())));
        return out;
    }

    private ObjectNode sectionTool(ObjectNode t) {
        ObjectNode n = mcpTool(t);
        n.put("auth", t.get("auth").asText());
        catalog.priceOf(t).ifPresentOrElse(p -> {
            ObjectNode price = n.putObject("price");
            price.put("amount", p.amount());
            price.put("currency", p.currency());
            price.put("atomic", p.atomic());
            price.put("decimals", p.decimals());
            price.put("payment", "x402");
        }, () -> n.putNull("price"));
        JsonNode w = t.get("wraps");
        ObjectNode wraps = n.putObject("wraps");
        wraps.put("method", w.get("method").asText());
        wraps.put("path", w.get("path").asText());
        wraps.put("url", url(w.get("path").asText()));
        ObjectNode call = n.putObject("mcp");
        call.put("endpoint", url(DocumentPaths.MCP));
        call.put("method", "tools/call");
        ArrayNode examples = n.putArray("examples");
        t.get("examples").forEach(e -> {
            ObjectNode x = examples.addObject();
            x.put("description", e.get("description").asText());
            x.set("arguments", e.get("arguments").deepCopy());
            ObjectNode rpc = x.putObject("request");
            rpc.put("jsonrpc", "2.0");
            rpc.put("id", 1);
            rpc.put("method", "tools/call");
            ObjectNode params = rpc.putObject("params");
            params.put("name", t.get("name").asText());
            params.set("arguments", e.get("arguments").deepCopy());
            x.put("expect", e.get("expect").asText());
            x.put("runnable_as_is", e.get("runnable").asBoolean());
        });
        return n;
    }

    private void addPricing(ObjectNode out) {
        out.put("model", "pay-per-call");
        out.put("currency", "USDC");
        out.put("payment_protocol", "x402");
        out.set("tiers", catalog.tiers().deepCopy());
        ArrayNode rows = out.putArray("tools");
        for (ObjectNode t : catalog.tools()) {
            ObjectNode r = rows.addObject();
            r.put("name", t.get("name").asText());
            r.put("auth", t.get("auth").asText());
            catalog.priceOf(t).ifPresentOrElse(p -> {
                r.put("price_usdc", p.amount());
                r.put("price_atomic", p.atomic());
                r.put("decimals", p.decimals());
                r.put("currency", p.currency());
                r.put("endpoint", p.endpoint());
            }, () -> {
                r.put("price_usdc", "0");
                r.put("price_atomic", "0");
                r.put("decimals", 6);
                r.put("currency", "USDC");
                JsonNode w = t.get("wraps");
                r.put("endpoint", w.get("method").asText() + " " + w.get("path").asText());
            });
        }
    }

    /** The trust_signals section for the given counters. */
    public ObjectNode trustSignals(long drsReceiptsIssued, long mandatesAnchored, long anchoredTransitions,
            long invoicesSettled, List<String> partnerships, java.time.Instant rebuiltAt) {
        ObjectNode out = section(DocumentPaths.TRUST_SIGNALS);
        ObjectNode metrics = mapper.createObjectNode();
        metrics.put("drs_receipts_issued", drsReceiptsIssued);
        metrics.put("mandates_anchored", mandatesAnchored);
        metrics.put("invoices_settled", invoicesSettled);
        metrics.put("anchored_transitions", anchoredTransitions);
        ArrayNode p = mapper.createArrayNode();
        partnerships.forEach(p::add);
        ObjectNode definitions = mapper.createObjectNode();
        definitions.put("drs_receipts_issued", "mandates that reached signed_by_both or signed_by_all (mandate.signed_by_both, mandate.signed_by_all events)");
        definitions.put("mandates_anchored", "distinct mandates with at least one transition anchored on chain");
        definitions.put("invoices_settled", "invoices currently SETTLED (invoice.settled minus invoice.unsettled after a reorg)");
        definitions.put("anchored_transitions", "anchor receipts received (one per anchored transition)");
        // keep the spec's fields first
        ObjectNode ordered = mapper.createObjectNode();
        ordered.set("name", out.get("name"));
        ordered.set("title", out.get("title"));
        ordered.set("description", out.get("description"));
        ordered.set("metrics", metrics);
        ordered.set("partnerships", p);
        ordered.put("rebuilt_at", rebuiltAt.toString());
        ordered.put("rebuild_schedule", config.trustSignalsCron());
        ordered.set("definitions", definitions);
        out.fields().forEachRemaining(e -> {
            if (!ordered.has(e.getKey())) {
                ordered.set(e.getKey(), e.getValue());
            }
        });
        return ordered;
    }

    // ---- A2A and llms.txt -------------------------------------------------------------------------

    ObjectNode agentCard() {
        JsonNode svc = catalog.service();
        ObjectNode c = mapper.createObjectNode();
        c.put("protocolVersion", "0.3.0");
        c.put("name", svc.get("name").asText());
        c.put("description", svc.get("description").asText());
        c.put("url", url(DocumentPaths.MCP));
        c.put("preferredTransport", "JSONRPC");
        c.put("version", svc.get("service_version").asText());
        c.put("documentationUrl", url(DocumentPaths.MANIFEST));
        c.putObject("provider").put("organization", svc.get("provider").asText()).put("url", url(""));
        c.putObject("capabilities").put("streaming", false).put("pushNotifications", false).put("stateTransitionHistory", false);
        c.putArray("defaultInputModes").add(JSON);
        c.putArray("defaultOutputModes").add(JSON);
        ArrayNode skills = c.putArray("skills");
        for (ObjectNode t : catalog.tools()) {
            ObjectNode s = skills.addObject();
            s.put("id", t.get("name").asText());
            s.put("name", t.get("title").asText());
            s.put("description", t.get("description").asText());
            s.putArray("tags").add(t.get("section").asText()).add(t.get("auth").asText()).add("mcp");
            ArrayNode ex = s.putArray("examples");
            t.get("examples").forEach(e -> ex.add(e.get("description").asText()));
            s.putArray("inputModes").add(JSON);
            s.putArray("outputModes").add(JSON);
        }
        c.putObject("x-mcp").put("endpoint", url(DocumentPaths.MCP)).put("transport", "streamable-http")
                .put("note", "skills are served as MCP tools of the same name at this endpoint; A2A message methods are not served");
        return c;
    }

    String llmsTxt() {
        JsonNode svc = catalog.service();
        StringBuilder b = new StringBuilder();
        b.append("# ").append(svc.get("name").asText()).append("\n\n");
        b.append("> ").append(svc.get("description").asText()).append("\n\n");
        b.append("Start at the manifest: ").append(url(DocumentPaths.MANIFEST))
                .append(". MCP tool server (JSON-RPC 2.0, streamable HTTP, stateless, no initialize needed): ")
                .append(url(DocumentPaths.MCP)).append("\n\n");
        b.append("Authentication: a partner API key (`x-api-key`), or an OAuth 2.0 access token (client credentials: POST ")
                .append(url("/oauth/token")).append(", then `Authorization: Bearer`; scopes per operation in ")
                .append(url("/openapi.json")).append("; metadata ").append(url("/.well-known/oauth-authorization-server"))
                .append(" and ").append(url("/.well-known/oauth-protected-resource")).append("; details ")
                .append(url(DocumentPaths.reference("authentication.md"))).append(").\n\n");
        b.append("## Sections\n\n");
        for (ObjectNode s : catalog.sections()) {
            b.append("- [").append(s.get("title").asText()).append("](").append(url(DocumentPaths.section(s.get("name").asText())))
                    .append("): ").append(s.get("description").asText()).append("\n");
        }
        b.append("\n## MCP tools\n\n");
        for (ObjectNode t : catalog.tools()) {
            String price = catalog.priceOf(t).map(p -> p.variable() ? "the invoice's amount in " + p.currency() + " (x402)"
                    : p.amount() + " " + p.currency() + " per call (x402)").orElse(
                    "api_key".equals(t.get("auth").asText()) ? "free, needs api_key or an OAuth access token" : "free");
            b.append("- `").append(t.get("name").asText()).append("` (").append(price).append("): ")
                    .append(t.get("description").asText()).append("\n");
        }
        b.append("\n## Reference\n\n");
        for (JsonNode r : catalog.references()) {
            b.append("- [").append(r.get("title").asText()).append("](").append(url(DocumentPaths.reference(r.get("name").asText())))
                    .append(")\n");
        }
        b.append("\n## Optional\n\n");
        b.append("- [Benchmark (ATRR)](").append(url(DocumentPaths.BENCHMARK)).append(")\n");
        b.append("- [A2A agent card](").append(url(DocumentPaths.AGENT_CARD)).append(")\n");
        return b.toString();
    }

    // ---- helpers ----------------------------------------------------------------------------------

    public StaticDocument json(JsonNode node) {
        try {
            return StaticDocument.of(mapper.writeValueAsBytes(node), JSON, StaticDocument.PUBLIC_5_MIN);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] resource(String path) {
        try (InputStream in = DocumentService.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException(path + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
