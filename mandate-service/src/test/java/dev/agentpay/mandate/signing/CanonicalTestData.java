package dev.agentpay.mandate.signing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Loads the committed data written by {@code src/test/js/generate-canonical-vectors.mjs}. */
final class CanonicalTestData {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private CanonicalTestData() {
    }

    static List<JsonNode> items(String resource) {
        try (InputStream in = CanonicalTestData.class.getResourceAsStream("/canonical/" + resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource canonical/" + resource);
            }
            JsonNode root = MAPPER.readTree(in);
            List<JsonNode> items = new ArrayList<>();
            root.get("items").forEach(items::add);
            if (items.size() != root.get("count").asInt()) {
                throw new IllegalStateException(resource + ": count does not match items");
            }
            return items;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
