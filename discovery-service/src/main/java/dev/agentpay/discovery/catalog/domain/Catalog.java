package dev.agentpay.discovery.catalog.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one source of truth of the discovery surface: capabilities, their tool schemas, prices,
 * sections and reference documents, read from {@code discovery/catalog.json}. Every published
 * document (manifest, sections, MCP tool list, pricing, agent card, llms.txt) is generated from it,
 * so none of them can drift from another.
 */
public final class Catalog {

    public static final String RESOURCE = "discovery/catalog.json";

    private final ObjectNode root;
    private final Map<String, ObjectNode> tools = new LinkedHashMap<>();
    private final Map<String, ObjectNode> sections = new LinkedHashMap<>();
    private final Map<String, Price> prices = new LinkedHashMap<>();

    /**
     * A price of one pay-per-call capability: decimal USDC and the same in atomic units; {@code variable}
     * when the call's own object sets it (paying an invoice costs that invoice's amount).
     */
    public record Price(String key, String amount, String currency, int decimals, String atomic, String endpoint, boolean variable) {
    }

    private Catalog(ObjectNode root) {
        this.root = root;
        root.get("tools").forEach(t -> tools.put(t.get("name").asText(), (ObjectNode) t));
        root.get("sections").forEach(s -> sections.put(s.get("name").asText(), (ObjectNode) s));
        root.get("prices").fields().forEachRemaining(e -> {
            JsonNode p = e.getValue();
            prices.put(e.getKey(), new Price(e.getKey(), p.get("amount").asText(), p.get("currency").asText(),
                    p.get("decimals").asInt(), p.get("atomic").asText(), p.get("endpoint").asText(), p.path("variable").asBoolean(false)));
        });
        check();
    }

    public static Catalog load(ObjectMapper mapper) {
        try (InputStream in = Catalog.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return new Catalog((ObjectNode) mapper.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Refuses a catalog whose parts do not refer to each other consistently (fails the start, not a caller). */
    private void check() {
        tools.values().forEach(t -> {
            String name = t.get("name").asText();
            if (!sections.containsKey(t.path("section").asText())) {
                throw new IllegalStateException("tool " + name + " names an unknown section");
            }
            if (t.has("price") && !prices.containsKey(t.get("price").asText())) {
                throw new IllegalStateException("tool " + name + " names an unknown price");
            }
            if (!"object".equals(t.path("inputSchema").path("type").asText())) {
                throw new IllegalStateException("tool " + name + " needs an object inputSchema");
            }
            if (t.has("price") != "x402".equals(t.path("auth").asText())) {
                throw new IllegalStateException("tool " + name + ": exactly the x402 tools carry a price");
            }
            java.math.BigDecimal atomic = t.has("price") && !prices.get(t.get("price").asText()).variable()
                    ? new java.math.BigDecimal(prices.get(t.get("price").asText()).atomic()) : null;
            if (atomic != null) {
                Price p = prices.get(t.get("price").asText());
                if (new java.math.BigDecimal(p.amount()).movePointRight(p.decimals()).compareTo(atomic) != 0) {
                    throw new IllegalStateException("price " + p.key() + ": amount and atomic disagree");
                }
            }
        });
        sections.values().forEach(s -> s.path("tools").forEach(n -> {
            ObjectNode t = tools.get(n.asText());
            if (t == null || !t.get("section").asText().equals(s.get("name").asText())) {
                throw new IllegalStateException("section " + s.get("name").asText() + " lists tool " + n.asText() + " inconsistently");
            }
        }));
    }

    public JsonNode service() {
        return root.get("service");
    }

    public JsonNode tiers() {
        return root.get("tiers");
    }

    public JsonNode references() {
        return root.get("references");
    }

    public List<ObjectNode> tools() {
        return Collections.unmodifiableList(new ArrayList<>(tools.values()));
    }

    public Optional<ObjectNode> tool(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public List<ObjectNode> sections() {
        return Collections.unmodifiableList(new ArrayList<>(sections.values()));
    }

    public Map<String, Price> prices() {
        return Collections.unmodifiableMap(prices);
    }

    /** The price of a tool, if it is paid per call. */
    public Optional<Price> priceOf(ObjectNode tool) {
        return tool.has("price") ? Optional.of(prices.get(tool.get("price").asText())) : Optional.empty();
    }
}
