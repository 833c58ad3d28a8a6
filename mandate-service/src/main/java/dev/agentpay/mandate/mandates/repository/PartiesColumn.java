package dev.agentpay.mandate.mandates.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.mandate.mandates.domain.Party;
import dev.agentpay.mandate.signing.SignatureScheme;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code parties} column of a mandate in the parties form: a JSON array, in signing order, of
 * {@code {id, role, scheme, signature, signed_at}} ({@code signature} and {@code signed_at} null until that
 * party signs). Text, like {@code terms}: the ids are signed and must come back exactly as written. Null for
 * a two-party mandate.
 */
public final class PartiesColumn {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PartiesColumn() {
    }

    public static String write(List<Party> parties) {
        if (parties == null) {
            return null;
        }
        ArrayNode out = JSON.createArrayNode();
        for (Party p : parties) {
            ObjectNode e = out.addObject();
            e.put("id", p.id);
            e.put("role", p.role);
            e.put("scheme", p.scheme.wire());
            e.put("signature", p.signature);
            e.put("signed_at", p.signedAt == null ? null : p.signedAt.toString());
        }
        return out.toString();
    }

    public static List<Party> read(String text) {
        if (text == null) {
            return null;
        }
        try {
            List<Party> out = new ArrayList<>();
            for (JsonNode e : JSON.readTree(text)) {
                out.add(new Party(e.get("id").textValue(), e.get("role").textValue(),
                        SignatureScheme.fromWire(e.get("scheme").textValue()), e.path("signature").textValue(),
                        e.path("signed_at").isTextual() ? Instant.parse(e.get("signed_at").textValue()) : null));
            }
            return out;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("unreadable parties column", e);
        }
    }
}
