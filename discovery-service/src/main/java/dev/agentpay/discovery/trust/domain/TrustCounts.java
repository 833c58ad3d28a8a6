package dev.agentpay.discovery.trust.domain;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Current counts. */
@Schema(name = "Counts")
public record TrustCounts(long drsReceiptsIssued, long mandatesAnchored, long anchoredTransitions, long invoicesSettled) {
}
