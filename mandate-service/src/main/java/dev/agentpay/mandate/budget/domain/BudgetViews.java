package dev.agentpay.mandate.budget.domain;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.mandate.config.ApiJson;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The JSON shapes of budgets and charges: answers, the Mandate object's {@code budget}, and the events' data. */
public final class BudgetViews {

    private BudgetViews() {
    }

    /** The signed budget, as on the Mandate object ({@code budget}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"amount", "currency", "period", "max_per_charge"})
    @Schema(name = "MandateBudgetTerms", description = "the budget the parties signed (amounts in USDC, as sent)")
    public record Terms(
            @Schema(required = true, examples = "1.00") String amount,
            @Schema(required = true, enumeration = "USDC") String currency,
            @Schema(description = "ISO 8601 duration (renews at each boundary counted from signed_by_both), or null",
                    examples = "P1D") String period,
            @Schema(description = "largest single charge, or null") String maxPerCharge) {

        public static Terms of(BudgetTerms t) {
            return t == null ? null : new Terms(t.amount(), t.currency(), t.period(), t.maxPerCharge());
        }
    }

    /** One charge. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"charge_id", "mandate_id", "invoice_id", "amount", "status", "created_at", "settled_at", "released_at"})
    @Schema(name = "MandateCharge")
    public record ChargeView(
            @Schema(required = true, examples = "chg_6b1f...") String chargeId,
            @Schema(required = true) String mandateId,
            @Schema(description = "null only while the invoice is being created (status reserving)") String invoiceId,
            @Schema(required = true, examples = "0.1") String amount,
            @Schema(required = true, enumeration = {"reserving", "pending", "settled", "released"}) String status,
            @Schema(required = true) String createdAt,
            String settledAt,
            String releasedAt) {

        public static ChargeView of(Charge c) {
            return new ChargeView(c.id(), c.mandateId(), c.invoiceId(), Usdc.text(c.amountAtomic()), c.status(),
                    ApiJson.time(c.createdAt()), ApiJson.time(c.settledAt()), ApiJson.time(c.releasedAt()));
        }
    }

    /** The money state of a budget's current period. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"amount", "currency", "period", "max_per_charge", "period_start", "period_end", "reserved",
            "spent", "remaining"})
    @Schema(name = "MandateBudgetState")
    public record State(
            @Schema(required = true) String amount,
            @Schema(required = true) String currency,
            String period,
            String maxPerCharge,
            @Schema(description = "start of the current period (null until the mandate is signed by every party)")
            String periodStart,
            @Schema(description = "end of the current period; null without a period") String periodEnd,
            @Schema(required = true) String reserved,
            @Schema(required = true) String spent,
            @Schema(required = true) String remaining) {

        /** {@code ledger} as it reads at {@code now} (brought to the current period when {@code anchor} is known). */
        public static State of(BudgetTerms t, BudgetLedger ledger, Instant anchor, Instant now) {
            if (anchor != null) {
                ledger.roll(anchor, now);
            }
            return new State(t.amount(), t.currency(), t.period(), t.maxPerCharge(), ApiJson.time(ledger.periodStart()),
                    ApiJson.time(ledger.periodEnd()), Usdc.text(ledger.reserved()), Usdc.text(ledger.spent()),
                    Usdc.text(ledger.remaining()));
        }
    }

    /** {@code GET /v1/mandates/{id}/budget}: the state and a page of charges, newest first. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"mandate_id", "amount", "currency", "period", "max_per_charge", "period_start", "period_end",
            "reserved", "spent", "remaining", "escrow", "charges", "next_cursor"})
    @Schema(name = "MandateBudget")
    public record Budget(
            @Schema(required = true) String mandateId,
            @Schema(required = true, examples = "1.00") String amount,
            @Schema(required = true, enumeration = "USDC") String currency,
            String period,
            String maxPerCharge,
            String periodStart,
            String periodEnd,
            @Schema(required = true, description = "held by charges whose invoice is not settled or expired yet") String reserved,
            @Schema(required = true, description = "settled in the current period") String spent,
            @Schema(required = true, description = "amount - spent - reserved") String remaining,
            @Schema(description = "the mandate's escrow on chain (issue 30), or null") dev.agentpay.mandate.escrow.domain.EscrowView escrow,
            @Schema(required = true) List<ChargeView> charges,
            @Schema(description = "pass as `cursor` for the next page; null on the last") String nextCursor) {

        public static Budget of(String mandateId, State s, dev.agentpay.mandate.escrow.domain.EscrowView escrow,
                List<ChargeView> charges, String nextCursor) {
            return new Budget(mandateId, s.amount(), s.currency(), s.period(), s.maxPerCharge(), s.periodStart(),
                    s.periodEnd(), s.reserved(), s.spent(), s.remaining(), escrow, charges, nextCursor);
        }
    }

    /** The data of {@code mandate.charge_*} and {@code mandate.budget_exhausted} events (and their webhooks). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"mandate_id", "charge", "budget"})
    public record EventData(String mandateId, ChargeView charge, State budget) {
    }
}
