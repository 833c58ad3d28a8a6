package dev.agentpay.mandate.mandates.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.mandate.config.ApiJson;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One party of a mandate as the Mandate object, the receipt and the events show it ({@code parties[]}), in
 * signing order: for a two-party mandate {@code proposer} then {@code counterparty}; in the parties form the
 * parties as created.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "role", "signature_scheme", "signature", "signed_at"})
@JsonInclude(JsonInclude.Include.ALWAYS)
@Schema(name = "MandateParty")
public record PartyView(
        @Schema(required = true, examples = "agent:buyer-1") String id,
        @Schema(required = true, examples = "buyer") String role,
        @Schema(required = true, enumeration = {"hmac", "hmac-role", "eip712"}) String signatureScheme,
        @Schema(description = "null until this party signed") String signature,
        @Schema(description = "null until this party signed") String signedAt) {

    public static PartyView of(Party p) {
        return new PartyView(p.id, p.role, p.scheme == null ? null : p.scheme.wire(), p.signature, ApiJson.time(p.signedAt));
    }

    public static List<PartyView> of(List<Party> parties) {
        return parties.stream().map(PartyView::of).toList();
    }
}
