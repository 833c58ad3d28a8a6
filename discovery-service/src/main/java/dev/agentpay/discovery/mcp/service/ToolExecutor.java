package dev.agentpay.discovery.mcp.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.catalog.domain.Catalog;
import dev.agentpay.discovery.client.InvoiceServiceClient;
import dev.agentpay.discovery.client.MandateServiceClient;
import dev.agentpay.discovery.domain.UpstreamResponse;
import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import dev.agentpay.discovery.documents.domain.DocumentPaths;
import dev.agentpay.commons.logging.LogSafe;
import dev.agentpay.discovery.documents.service.DocumentStore;
import dev.agentpay.discovery.verification.service.MandateVerifier;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * Runs one MCP tool: validates the arguments against the tool's published schema, calls the wrapped
 * endpoint of the owning service, and turns the answer into a {@code CallToolResult} whose
 * {@code structuredContent} is mirrored as JSON in the first text block. Every failure is an
 * {@code isError} result with a readable reason, never a transport error.
 */
@ApplicationScoped
public class ToolExecutor {

    private static final Logger LOG = Logger.getLogger(ToolExecutor.class);

    @Inject
    Catalog catalog;

    @Inject
    ObjectMapper mapper;

    @Inject
    DocumentStore store;

    @Inject
    MandateServiceClient mandates;

    @Inject
    InvoiceServiceClient invoices;

    @Inject
    MandateVerifier verifier;

    public Uni<ObjectNode> call(ObjectNode tool, ObjectNode args) {
        return call(tool, args, null);
    }

    /**
     * Runs the tool; {@code bearer} is the access token the MCP request itself carried ({@code Authorization:
     * Bearer}), used by tools that take a partner credential when the arguments name none.
     */
    public Uni<ObjectNode> call(ObjectNode tool, ObjectNode args, String bearer) {
        String name = tool.get("name").asText();
        List<String> problems = new java.util.ArrayList<>(headerProblems(args));
        problems.addAll(ArgumentValidator.problems(tool.get("inputSchema"), args));
        if (!problems.isEmpty()) {
            ObjectNode s = error("invalid_arguments", String.join("; ", problems));
            return Uni.createFrom().item(failure("Invalid arguments for " + name + ": " + String.join("; ", problems), s));
        }
        Uni<ObjectNode> result = switch (name) {
            case "service_get_pricing" -> document(DocumentPaths.section(DocumentPaths.PRICING));
            case "service_get_trust_signals" -> document(DocumentPaths.section(DocumentPaths.TRUST_SIGNALS));
            case "service_query_mandate" -> queryMandate(args.get("mandate_id").asText(),
                    args.hasNonNull("api_key") ? args.get("api_key").asText() : null);
            case "service_charge_mandate" -> chargeMandate(args);
            case "service_verify_mandate" -> verifyMandate(args.get("mandate_id").asText());
            case "service_dispute_open" -> disputeOpen(args, bearer);
            case "service_dispute_add_evidence" -> disputeEvidence(args, bearer);
            case "service_dispute_status" -> disputeStatus(args, bearer);
            case "service_create_invoice" -> x402(tool, "/api/x402/invoice", args);
            case "service_settle_invoice" -> x402(tool, "/api/x402/settle", args);
            case "service_pay_invoice" -> payInvoice(tool, args);
            default -> Uni.createFrom().item(failure("Tool " + name + " has no implementation", error("not_implemented", name)));
        };
        return result.onFailure(UpstreamUnavailableException.class).recoverWithItem(e -> {
            UpstreamUnavailableException u = (UpstreamUnavailableException) e;
            LOG.warnf("tool %s: %s", name, LogSafe.text(u.getMessage()));
            return failure(u.service() + " is unavailable or did not answer in time; retry later",
                    error("upstream_unavailable", u.service() + " did not answer"));
        });
    }

    /**
     * Arguments sent on as HTTP headers must be legal header values whatever the catalog's schema says:
     * visible ASCII, no space, CR, LF or other control (Vert.x would throw with the value in its message).
     */
    static final java.util.Map<String, String> HEADER_BOUND = java.util.Map.of(
            "api_key", "x-api-key", "access_token", "Authorization", "x_payment", InvoiceServiceClient.X_PAYMENT,
            "idempotency_key", "Idempotency-Key");

    static List<String> headerProblems(ObjectNode args) {
        List<String> out = new java.util.ArrayList<>();
        HEADER_BOUND.forEach((arg, header) -> {
            JsonNode v = args.get(arg);
            if (v != null && v.isTextual() && !v.textValue().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                out.add(arg + ": must be visible ASCII without spaces, line breaks or control characters (it is sent as the "
                        + header + " header; trim a value read from a file)");
            }
        });
        out.sort(null);
        return out;
    }

    /** Parsed documents by path, reused while their ETag is unchanged (they are never mutated). */
    private final java.util.Map<String, java.util.Map.Entry<String, ObjectNode>> parsed = new java.util.concurrent.ConcurrentHashMap<>();

    private Uni<ObjectNode> document(String path) {
        return Uni.createFrom().item(() -> store.get(path)
                .map(d -> {
                    var cached = parsed.get(path);
                    if (cached == null || !cached.getKey().equals(d.etag())) {
                        try {
                            cached = java.util.Map.entry(d.etag(), (ObjectNode) mapper.readTree(d.body()));
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                        parsed.put(path, cached);
                    }
                    return success(cached.getValue());
                })
                .orElseGet(() -> failure("The document " + path + " is not available yet; retry shortly", error("not_ready", path))));
    }

    private Uni<ObjectNode> queryMandate(String id, String apiKey) {
        return mandates.publicMandate(id).flatMap(r -> {
            if (!r.ok()) {
                return Uni.createFrom().item(r.status() == 404
                        ? failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found"))
                        : refused(MandateServiceClient.SERVICE, r));
            }
            ObjectNode view = unwrap(r.body());
            if (apiKey == null) {
                return Uni.createFrom().item(success(view));
            }
            // with the owner's key: the budget (never in the public view)
            return mandates.budget(id, apiKey).map(b -> {
                if (b.ok()) {
                    view.set("budget", unwrap(b.body()));
                    return success(view);
                }
                if (b.status() == 404 && "no_budget".equals(b.body() == null ? null : b.body().path("error").path("code").asText())) {
                    view.putNull("budget");
                    return success(view);
                }
                return switch (b.status()) {
                    case 401 -> failure("The api_key was refused by mandate-service (missing, invalid or revoked)", upstreamError(b, "unauthorized"));
                    case 404 -> failure("Mandate " + id + " is not this partner's", upstreamError(b, "mandate_not_found"));
                    default -> refused(MandateServiceClient.SERVICE, b);
                };
            });
        });
    }

    /** {@code POST /v1/mandates/{id}/charges} with the partner's key; the body is the tool's arguments less the credentials. */
    private Uni<ObjectNode> chargeMandate(ObjectNode args) {
        String id = args.get("mandate_id").asText();
        ObjectNode body = body(args, List.of("amount", "chain"), List.of("description", "expires_in"));
        return mandates.charge(id, args.get("api_key").asText(), idempotencyKey(args), body).map(r -> {
            if (r.ok()) {
                return success(unwrap(r.body()));
            }
            return switch (r.status()) {
                case 401 -> failure("The api_key was refused by mandate-service (missing, invalid or revoked)", upstreamError(r, "unauthorized"));
                case 404 -> failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found"));
                case 409 -> failure("The charge was refused: " + upstreamError(r, "refused").path("error").path("message").asText(),
                        upstreamError(r, "refused"));
                case 503 -> failure("The charge is reserved but its invoice is not created yet; call again with the same "
                        + "idempotency_key", upstreamError(r, "charge_pending"));
                default -> refused(MandateServiceClient.SERVICE, r);
            };
        });
    }

    private Uni<ObjectNode> verifyMandate(String id) {
        return mandates.proof(id).flatMap(r -> {
            if (r.ok()) {
                // a proof that does not verify is a result (verdict failed or unverifiable, failed[]/unverifiable[] name the checks), not a tool error
                return verifier.verify(unwrap(r.body())).map(this::success);
            }
            if (r.status() == 404) {
                return Uni.createFrom().item(failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found")));
            }
            return Uni.createFrom().item(refused(MandateServiceClient.SERVICE, r));
        });
    }

    private Uni<ObjectNode> disputeOpen(ObjectNode args, String bearer) {
        String id = args.get("mandate_id").asText();
        return withCredential("service_dispute_open", args, bearer, "disputes:write",
                credential -> mandates.dispute(id, credential, args.get("reason").asText(), "mcp:service_dispute_open"),
                data -> {
                    if (!data.has("mandate_id") && !data.has("id")) {
                        data.put("mandate_id", id);
                    }
                    if (!data.has("state") && !data.has("status")) {
                        data.put("state", "disputed");
                    }
                    return data;
                },
                r -> switch (r.status()) {
                    case 404 -> failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found"));
                    case 409 -> failure("Mandate " + id + " cannot be disputed in its current state (only signed_by_both, signed_by_all or in_progress)",
                            upstreamError(r, "invalid_transition"));
                    default -> refused(MandateServiceClient.SERVICE, r);
                });
    }

    /** {@code POST /v1/mandates/{id}/dispute/evidence}: the body is the tool's arguments less the credentials and the key. */
    private Uni<ObjectNode> disputeEvidence(ObjectNode args, String bearer) {
        String id = args.get("mandate_id").asText();
        ObjectNode body = body(args, List.of("party", "text"), List.of("links")).put("triggered_by", "mcp:service_dispute_add_evidence");
        return withCredential("service_dispute_add_evidence", args, bearer, "disputes:write",
                credential -> mandates.disputeEvidence(id, credential, idempotencyKey(args), body), UnaryOperator.identity(),
                r -> switch (r.status()) {
                    case 400 -> failure("The evidence was refused: " + upstreamError(r, "validation_error").path("error").path("message").asText(),
                            upstreamError(r, "validation_error"));
                    case 404 -> failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found"));
                    case 409 -> failure("Mandate " + id + " takes no evidence now: "
                            + upstreamError(r, "dispute_not_open").path("error").path("message").asText(), upstreamError(r, "dispute_not_open"));
                    default -> refused(MandateServiceClient.SERVICE, r);
                });
    }

    /** {@code GET /v1/mandates/{id}/dispute}. */
    private Uni<ObjectNode> disputeStatus(ObjectNode args, String bearer) {
        String id = args.get("mandate_id").asText();
        return withCredential("service_dispute_status", args, bearer, "mandates:read",
                credential -> mandates.disputeCase(id, credential), UnaryOperator.identity(),
                r -> switch (r.status()) {
                    case 404 -> "no_dispute".equals(upstreamError(r, "mandate_not_found").path("error").path("code").asText())
                            ? failure("Mandate " + id + " was never disputed", upstreamError(r, "no_dispute"))
                            : failure("Mandate " + id + " was not found", upstreamError(r, "mandate_not_found"));
                    default -> refused(MandateServiceClient.SERVICE, r);
                });
    }

    /**
     * A tool that calls mandate-service with the partner's credential ({@link #credential}), which needs {@code scope}:
     * none (or two) is {@code invalid_arguments} before any call, a refused one (401, 403) the same answer for every
     * such tool ({@link #credentialRefused}); a success is the answer's data as {@code data} completes it, any other
     * answer what the tool's {@code refusal} makes of it.
     */
    private Uni<ObjectNode> withCredential(String tool, ObjectNode args, String bearer, String scope,
            Function<MandateServiceClient.Credential, Uni<UpstreamResponse>> call, UnaryOperator<ObjectNode> data,
            Function<UpstreamResponse, ObjectNode> refusal) {
        MandateServiceClient.Credential credential = credential(args, bearer);
        if (credential == null) {
            return Uni.createFrom().item(noCredential(tool, args, scope));
        }
        return call.apply(credential).map(r -> {
            if (r.ok()) {
                return success(data.apply(unwrap(r.body())));
            }
            return r.status() == 401 || r.status() == 403 ? credentialRefused(r, credential, scope) : refusal.apply(r);
        });
    }

    /** The body of a wrapped write: the tool's {@code required} arguments, then its {@code optional} ones that are given. */
    private ObjectNode body(ObjectNode args, List<String> required, List<String> optional) {
        ObjectNode body = mapper.createObjectNode();
        required.forEach(name -> body.set(name, args.get(name)));
        optional.stream().filter(args::hasNonNull).forEach(name -> body.set(name, args.get(name)));
        return body;
    }

    /** The {@code idempotency_key} argument of a wrapped write, sent on as its {@code Idempotency-Key}; null when not given. */
    private static String idempotencyKey(ObjectNode args) {
        return args.hasNonNull("idempotency_key") ? args.get("idempotency_key").asText() : null;
    }

    private ObjectNode noCredential(String tool, ObjectNode args, String scope) {
        String why = args.has("api_key") && args.has("access_token")
                ? "send one credential: api_key or access_token, not both"
                : "api_key: is required (or an OAuth 2.0 access token with scope " + scope + ": access_token, or the MCP "
                        + "request's Authorization: Bearer header)";
        return failure("Invalid arguments for " + tool + ": " + why, error("invalid_arguments", why));
    }

    /** The partner credential of a keyed tool: api_key, access_token, or the MCP request's bearer token; null if none or two. */
    static MandateServiceClient.Credential credential(ObjectNode args, String bearer) {
        boolean key = args.hasNonNull("api_key");
        boolean token = args.hasNonNull("access_token");
        if (key && token) {
            return null;
        }
        if (key) {
            return MandateServiceClient.Credential.apiKey(args.get("api_key").asText());
        }
        if (token) {
            return MandateServiceClient.Credential.bearer(args.get("access_token").asText());
        }
        return bearer == null ? null : MandateServiceClient.Credential.bearer(bearer);
    }

    /** {@code POST /v1/invoices/{id}/pay}: the id goes in the path (a UUID, so nothing else can). */
    private Uni<ObjectNode> payInvoice(ObjectNode tool, ObjectNode args) {
        java.util.UUID id;
        try {
            id = java.util.UUID.fromString(args.path("invoice_id").asText(""));
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(failure("invoice_id must be an invoice id (UUID)", error("validation_error", "invoice_id: not a UUID")));
        }
        ObjectNode rest = args.deepCopy();
        rest.remove("invoice_id");
        return x402(tool, "/v1/invoices/" + id + "/pay", rest);
    }

    private Uni<ObjectNode> x402(ObjectNode tool, String path, ObjectNode args) {
        ObjectNode body = args.deepCopy();
        JsonNode payment = body.remove("x_payment");
        String proof = payment == null || payment.isNull() ? null : payment.asText();
        return invoices.x402(path, body, proof).map(r -> {
            if (r.ok()) {
                return success(r.body() != null && r.body().isObject() ? (ObjectNode) r.body() : wrap(r.body()));
            }
            if (r.status() == 402) {
                // x402's MCP convention: the PaymentRequired object itself is the structured error
                ObjectNode required = r.body() != null && r.body().isObject() ? (ObjectNode) r.body() : error("payment_required", "payment required");
                String price = catalog.priceOf(tool).map(p -> p.variable() ? "the invoice's amount in " + p.currency()
                        : p.amount() + " " + p.currency()).orElse("a payment");
                String why = required.path("error").isTextual() ? " (" + required.get("error").asText() + ")" : "";
                String reason = (proof == null
                        ? "Payment required: this call costs " + price + ". Pay one of accepts[] and call again with the base64 proof in x_payment."
                        : "The payment in x_payment was not accepted" + why + ". Pay one of accepts[] and call again.");
                return failure(reason, required);
            }
            return refused(InvoiceServiceClient.SERVICE, r);
        });
    }

    // ---- results ----------------------------------------------------------------------------------

    ObjectNode success(ObjectNode structured) {
        ObjectNode r = mapper.createObjectNode();
        r.putArray("content").addObject().put("type", "text").put("text", structured.toString());
        r.set("structuredContent", structured);
        r.put("isError", false);
        return r;
    }

    ObjectNode failure(String reason, JsonNode structured) {
        ObjectNode r = mapper.createObjectNode();
        var content = r.putArray("content");
        content.addObject().put("type", "text").put("text", structured.toString());
        content.addObject().put("type", "text").put("text", reason);
        r.set("structuredContent", structured);
        r.put("isError", true);
        return r;
    }

    /**
     * mandate-service's refusal of the tool's credential: not accepted at all (401) or short of {@code scope} (403);
     * the same answer for every tool that carries an api_key or access token.
     */
    private ObjectNode credentialRefused(UpstreamResponse r, MandateServiceClient.Credential credential, String scope) {
        return r.status() == 401
                ? failure("The " + credential.what() + " was refused by mandate-service (missing, invalid, expired or revoked)",
                        upstreamError(r, "unauthorized"))
                : failure("The " + credential.what() + " lacks scope " + scope, upstreamError(r, "insufficient_scope"));
    }

    private ObjectNode refused(String service, UpstreamResponse r) {
        if (r.status() >= 500) {
            return failure(service + " failed (HTTP " + r.status() + "); retry later", upstreamError(r, "upstream_error"));
        }
        ObjectNode s = upstreamError(r, "refused");
        return failure(service + " refused the call (HTTP " + r.status() + "): " + s.path("error").path("message").asText(), s);
    }

    /** The upstream's error envelope when it sent one, else a generic one; always with the HTTP status. */
    private ObjectNode upstreamError(UpstreamResponse r, String fallbackCode) {
        JsonNode e = r.body() == null ? null : r.body().get("error");
        ObjectNode out;
        if (e != null && e.isObject() && e.has("code")) {
            out = mapper.createObjectNode();
            out.set("error", e.deepCopy());
        } else {
            out = error(fallbackCode, "HTTP " + r.status());
        }
        ((ObjectNode) out.get("error")).put("status", r.status());
        return out;
    }

    private ObjectNode error(String code, String message) {
        ObjectNode s = mapper.createObjectNode();
        s.putObject("error").put("code", code).put("message", message);
        return s;
    }

    /** The {@code data} of a {@code {success, data}} envelope, else the body itself. */
    private ObjectNode unwrap(JsonNode body) {
        if (body != null && body.isObject() && body.path("data").isObject()) {
            return ((ObjectNode) body.get("data")).deepCopy();
        }
        return body != null && body.isObject() ? ((ObjectNode) body).deepCopy() : wrap(body);
    }

    private ObjectNode wrap(JsonNode body) {
        ObjectNode o = mapper.createObjectNode();
        o.set("result", body == null ? mapper.nullNode() : body);
        return o;
    }
}
