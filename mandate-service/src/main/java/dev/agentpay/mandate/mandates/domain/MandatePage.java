package dev.agentpay.mandate.mandates.domain;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A page of {@code GET /v1/mandates}: the partner's mandates, newest first, and the cursor of the next page. */
@Schema(name = "MandatePage")
public record MandatePage(
        @Schema(required = true, description = "mandates as `GET /v1/mandates/{id}` shows them, without `transitions` (null):"
                + " read one mandate for its timeline") List<MandateView> items,
        @Schema(description = "pass as `cursor` for the next page; null on the last page") String nextCursor) {
}
