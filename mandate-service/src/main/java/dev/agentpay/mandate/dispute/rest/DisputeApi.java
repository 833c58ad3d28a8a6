package dev.agentpay.mandate.dispute.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentpay.mandate.budget.domain.Usdc;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The typed bodies of the dispute API (issue 30), checked by Bean Validation before a resource method runs. */
public final class DisputeApi {

    /** Longest evidence text. */
    public static final int TEXT_MAX = 10_000;
    /** Most links per piece of evidence. */
    public static final int LINKS_MAX = 5;
    public static final int LINK_MAX = 2_048;
    static final String LINK_PATTERN = "^https?://[!-~]+$";
    static final String ROLE_PATTERN = "^[a-z][a-z0-9_-]{0,31}$";

    private DisputeApi() {
    }

    @Schema(name = "DisputeEvidenceRequest", additionalProperties = Schema.False.class)
    public record EvidenceRequest(
            @NotNull @Pattern(regexp = ROLE_PATTERN, message = "must be proposer, counterparty or one of the mandate's roles")
            @Schema(required = true, description = "the side the evidence is for: `proposer` or `counterparty` (parties form: "
                    + "one of the mandate's roles); one partner integrates every party of its mandates",
                    examples = "counterparty") String party,
            @NotNull @NotBlank @Size(max = TEXT_MAX)
            @Schema(required = true, maxLength = TEXT_MAX, examples = "Delivered on 3 May, see the log.") String text,
            @Size(max = LINKS_MAX, message = "must list at most 5 links")
            @Schema(description = "at most 5 http(s) URLs, stored as given (the service never fetches them)",
                    examples = "[\"https://example.com/log.txt\"]")
            List<@NotNull @Size(max = LINK_MAX) @Pattern(regexp = LINK_PATTERN,
                    message = "must be an http:// or https:// URL of visible ASCII characters") String> links,
            @JsonProperty("triggered_by") @Size(max = 256)
            @Schema(description = "who acted (an audit label); blank or absent: system") String triggeredBy) {
    }

    @Schema(name = "ResolveDisputeRequest", additionalProperties = Schema.False.class,
            description = "the arbiter's split: to_counterparty + to_proposer must equal what is held (GET "
                    + "/v1/mandates/{id}/dispute `held`)")
    public record ResolveRequest(
            @JsonProperty("to_counterparty") @NotNull @Pattern(regexp = Usdc.PATTERN, message = Usdc.RULE)
            @Schema(required = true, pattern = Usdc.PATTERN, examples = "1.5") String toCounterparty,
            @JsonProperty("to_proposer") @NotNull @Pattern(regexp = Usdc.PATTERN, message = Usdc.RULE)
            @Schema(required = true, pattern = Usdc.PATTERN, examples = "0.5") String toProposer,
            @Size(max = 4_000) @Schema(description = "the arbiter's note, recorded in the resolved transition",
                    examples = "delivery shown by the counterparty's log") String note) {
    }

    /** A {@code 400}: {@code resolution_sum_mismatch} carries {@code held}; other bad input has only code and message. */
    @Schema(name = "ResolutionSumMismatchError")
    public record SumMismatchError(@Schema(required = true) boolean success, @Schema(required = true) SumMismatchBody error) {
    }

    @Schema(name = "ResolutionSumMismatch")
    public record SumMismatchBody(@Schema(required = true, examples = "resolution_sum_mismatch") String code,
            @Schema(required = true) String message, @Schema(description = "USDC held (only with `resolution_sum_mismatch`)", examples = "2") String held) {
    }
}
