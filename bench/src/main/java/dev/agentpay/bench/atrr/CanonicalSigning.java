package dev.agentpay.bench.atrr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The canonical mandate encoding as the canonical-signing reference document describes it. */
final class CanonicalSigning {

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private CanonicalSigning() {
    }

    static String signature(ObjectMapper mapper, JsonNode mandate, String secret) throws Exception {
        ObjectNode o = mapper.createObjectNode();
        o.put("counterparty_agent_id", mandate.get("counterparty_agent_id").asText());
        o.put("expires_at", ISO_MILLIS.format(Instant.parse(mandate.get("expires_at").asText())));
        o.put("id", mandate.get("id").asText());
        o.put("proposer_agent_id", mandate.get("proposer_agent_id").asText());
        o.put("scope", mandate.get("scope").asText());
        o.set("terms", sorted(mapper, mandate.get("terms")));
        byte[] bytes = mapper.writeValueAsString(o).getBytes(StandardCharsets.UTF_8);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return HexFormat.of().formatHex(mac.doFinal(bytes));
    }

    static JsonNode sorted(ObjectMapper mapper, JsonNode n) {
        if (n.isObject()) {
            List<String> names = new ArrayList<>();
            n.fieldNames().forEachRemaining(names::add);
            Collections.sort(names);
            ObjectNode out = mapper.createObjectNode();
            names.forEach(k -> out.set(k, sorted(mapper, n.get(k))));
            return out;
        }
        if (n.isArray()) {
            ArrayNode out = mapper.createArrayNode();
            n.forEach(e -> out.add(sorted(mapper, e)));
            return out;
        }
        return n;
    }
}
