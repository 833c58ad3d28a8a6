package dev.agentpay.invoice.x402.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.invoice.x402.config.X402Config;
import dev.agentpay.invoice.x402.domain.Capability;
import dev.agentpay.invoice.x402.domain.DecodedPayment;
import dev.agentpay.invoice.x402.domain.PaymentRequirement;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The payment requirements of each paid call (one per rail: {@code exact} USDC on Solana first, when it
 * has a seller wallet and a fee payer, then on the EVM chain), and the 402 answer in both protocol versions:
 * the v1 body and the v2 {@code PAYMENT-REQUIRED} header.
 */
@ApplicationScoped
public class Challenges {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String MIME = "application/json";

    /** A serialized 402: the v1 body and the v2 header. */
    public record Prepared(String body, String v2Header) {
    }

    /** Plain challenges (no refusal reason) per capability and URL: the hot path of unpaid calls. */
    private final Map<String, Prepared> plain = new ConcurrentHashMap<>();
    private final Map<String, List<PaymentRequirement>> requirementCache = new ConcurrentHashMap<>();
    private static final int MAX_CACHED = 256;

    @Inject
    X402Config config;

    /**
     * The serialized 402 for these requirements. The plain challenge is cached per capability and URL
     * (configuration is fixed at start-up); refusals carry their own message and are built each time.
     */
    public Prepared prepare(Capability capability, String resourceUrl, List<PaymentRequirement> reqs, String code,
            String message) {
        if (!"payment_required".equals(code) || capability == Capability.PAY) {
            return new Prepared(body(reqs, code, message).toString(), v2Header(capability, resourceUrl, reqs, message));
        }
        String key = capability.value() + ' ' + resourceUrl;
        Prepared p = plain.get(key);
        if (p == null) {
            p = new Prepared(body(reqs, code, message).toString(), v2Header(capability, resourceUrl, reqs, message));
            if (plain.size() < MAX_CACHED) {
                plain.put(key, p);
            }
        }
        return p;
    }

    @Inject
    ChainTable chains;

    /** The requirements of a call at its public URL, Solana first (when it has a seller wallet and a fee payer), then EVM. */
    public List<PaymentRequirement> requirements(Capability capability, String resourceUrl) {
        String key = capability.value() + ' ' + resourceUrl;
        List<PaymentRequirement> cached = requirementCache.get(key);
        if (cached != null) {
            return cached;
        }
        List<PaymentRequirement> built = List.copyOf(build(capability, resourceUrl));
        if (requirementCache.size() < MAX_CACHED) {
            requirementCache.put(key, built);
        }
        return built;
    }

    /**
     * The one requirement of paying an invoice: {@code exact} USDC of what it still asks for, on its own
     * chain, to its own deposit address; empty when its chain is not the x402 EVM rail.
     */
    public List<PaymentRequirement> forInvoice(dev.agentpay.invoice.invoices.domain.Invoice inv, java.math.BigInteger amount, String resourceUrl) {
        if (!inv.chain().equals(config.evm().chain()) || inv.addressKind() != dev.agentpay.invoice.invoices.domain.Invoice.AddressKind.DEPOSIT) {
            return List.of();
        }
        ObjectNode extra = JSON.createObjectNode();
        extra.put("name", config.evm().tokenName());
        extra.put("version", config.evm().tokenVersion());
        return List.of(new PaymentRequirement("exact", config.evm().network(), amount.toString(), resourceUrl,
                Capability.PAY.description() + ": invoice " + inv.id(), MIME, outputSchema(Capability.PAY), inv.paymentAddress(),
                config.maxTimeoutSeconds(), inv.usdcAddress(), extra, "eip155:" + config.evm().chainId(), DecodedPayment.Rail.EVM));
    }

    private List<PaymentRequirement> build(Capability capability, String resourceUrl) {
        List<PaymentRequirement> out = new ArrayList<>(2);
        String price = Long.toString(capability.price(config));
        JsonNode output = outputSchema(capability);
        // The Solana rail first (the spec's rail for x402), then EVM.
        ChainTable.Entry sol = chains.get(Chain.SOLANA);
        if (config.solana().enabled() && sol.acceptsInvoices() && config.solana().feePayer().isPresent()) {
            ObjectNode extra = JSON.createObjectNode();
            extra.put("feePayer", config.solana().feePayer().get());
            out.add(new PaymentRequirement("exact", config.solana().network(), price, resourceUrl,
                    capability.description(), MIME, output, sol.paymentAddress().orElseThrow(), config.maxTimeoutSeconds(),
                    sol.usdcAddress(), extra, config.solana().caip2(), DecodedPayment.Rail.SOLANA));
        }
        ChainTable.Entry evm = Chain.of(config.evm().chain()).map(chains::get).orElse(null);
        if (evm != null && evm.acceptsInvoices()) {
            ObjectNode extra = JSON.createObjectNode();
            extra.put("name", config.evm().tokenName());
            extra.put("version", config.evm().tokenVersion());
            out.add(new PaymentRequirement("exact", config.evm().network(), price, resourceUrl, capability.description(),
                    MIME, output, evm.paymentAddress().orElseThrow(), config.maxTimeoutSeconds(), evm.usdcAddress(),
                    extra, "eip155:" + config.evm().chainId(), DecodedPayment.Rail.EVM));
        }
        return out;
    }

    /** A requirement in x402 v1 form (the 402 body, and what the facilitator receives). */
    public static ObjectNode v1(PaymentRequirement r) {
        return JSON.valueToTree(r);
    }

    /** A requirement in x402 v2 form (inside {@code PAYMENT-REQUIRED}). */
    public static ObjectNode v2(PaymentRequirement r) {
        // v1's fields that v2 keeps, its CAIP-2 network, and the price under v2's name
        ObjectNode n = v1(r).retain("scheme", "asset", "payTo", "maxTimeoutSeconds", "extra");
        n.put("network", r.v2Network());
        n.put("amount", r.maxAmountRequired());
        return n;
    }

    /**
     * The v1 body of a 402: {@code {x402Version: 1, error, accepts}}, plus {@code errorCode} (machine
     * readable) and {@code success: false} as in every refusal of this API.
     */
    public ObjectNode body(List<PaymentRequirement> reqs, String code, String message) {
        ObjectNode b = JSON.createObjectNode();
        b.put("x402Version", 1);
        b.put("error", message);
        ArrayNode accepts = b.putArray("accepts");
        reqs.forEach(r -> accepts.add(v1(r)));
        b.put("success", false);
        b.put("errorCode", code);
        return b;
    }

    /** The v2 {@code PAYMENT-REQUIRED} header: base64 of {@code {x402Version: 2, error, resource, accepts}}. */
    public String v2Header(Capability capability, String resourceUrl, List<PaymentRequirement> reqs, String message) {
        ObjectNode b = JSON.createObjectNode();
        b.put("x402Version", 2);
        b.put("error", message);
        ObjectNode resource = b.putObject("resource");
        resource.put("url", resourceUrl);
        resource.put("description", capability.description());
        resource.put("mimeType", MIME);
        ArrayNode accepts = b.putArray("accepts");
        reqs.forEach(r -> accepts.add(v2(r)));
        return Base64.getEncoder().encodeToString(b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** What the call takes and returns, in the x402 {@code outputSchema} convention ({@code input}, {@code output}). */
    static JsonNode outputSchema(Capability c) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode input = root.putObject("input");
        input.put("type", "http");
        input.put("method", "POST");
        input.put("bodyType", "json");
        ObjectNode fields = input.putObject("bodyFields");
        ObjectNode output = root.putObject("output");
        output.put("type", "object");
        ObjectNode props = output.putObject("properties");
        props.putObject("success").put("type", "boolean");
        props.putObject("capability").put("type", "string").put("const", c.value());
        ObjectNode result = props.putObject("result");
        result.put("type", "object");
        ObjectNode rp = result.putObject("properties");
        rp.putObject("id").put("type", "string").put("format", "uuid");
        rp.putObject("status").put("type", "string").putArray("enum").add("PENDING").add("SETTLED");
        if (c == Capability.PAY) {
            rp.putObject("amount").put("type", "number");
            rp.putObject("paymentDetails").put("type", "object");
        } else if (c == Capability.INVOICE) {
            field(fields, "issuer", "string", "seller name or agent id", false);
            field(fields, "recipient", "string", "buyer", false);
            field(fields, "email", "string", "buyer email address", false);
            field(fields, "amount", "number", "invoice amount in USDC (default 0.01)", false);
            field(fields, "currency", "string", "USDC (default)", false);
            field(fields, "description", "string", "what the invoice is for", false);
        } else {
            field(fields, "invoice_id", "string", "UUID of the invoice to check", true);
            rp.putObject("amount").put("type", "number");
            rp.putObject("currency").put("type", "string");
            rp.putObject("paymentDetails").put("type", "object");
        }
        return root;
    }

    private static void field(ObjectNode fields, String name, String type, String description, boolean required) {
        ObjectNode f = fields.putObject(name);
        f.put("type", type);
        f.put("description", description);
        f.put("required", required);
    }
}
