package dev.agentpay.mandate.budget.repository;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.mandate.budget.domain.BudgetLedger;
import dev.agentpay.mandate.budget.domain.BudgetTerms;
import dev.agentpay.mandate.mandates.domain.Mandate;
import io.vertx.mutiny.sqlclient.Row;
import java.math.BigInteger;
import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * The budget of a mandate read in the same statement as the mandate (a scalar subquery, so the mandate's
 * {@code for update} locks only the mandate row): the signed terms and the ledger for {@code budget_remaining}.
 */
public final class BudgetColumn {

    /** A select-list item named {@code budget}: the budget row as JSON text, or null. */
    public static final String SQL = "(select json_build_object('amount', b.amount, 'currency', b.currency, 'period', b.period,"
            + " 'max_per_charge', b.max_per_charge, 'amount_atomic', b.amount_atomic::text, 'period_millis', b.period_millis,"
            + " 'period_start', b.period_start, 'reserved', b.reserved_atomic::text, 'spent', b.spent_atomic::text)::text"
            + " from mandate_budget b where b.mandate_id = mandate.id) as budget";

    private BudgetColumn() {
    }

    /** Sets {@code m.budget} and {@code m.budgetLedger} from the row's {@code budget} column (left null without one). */
    public static void read(Row r, Mandate m) {
        String json = r.getString("budget");
        if (json == null) {
            return;
        }
        try {
            JsonNode b = EventCodec.mapper().readTree(json);
            m.budget = new BudgetTerms(b.path("amount").asText(), b.path("currency").asText(), text(b, "period"),
                    text(b, "max_per_charge"));
            String start = text(b, "period_start");
            m.budgetLedger = new BudgetLedger(new BigInteger(b.path("amount_atomic").asText()),
                    b.hasNonNull("period_millis") ? Duration.ofMillis(b.path("period_millis").asLong()) : null,
                    start == null ? null : OffsetDateTime.parse(start).toInstant(),
                    new BigInteger(b.path("reserved").asText()), new BigInteger(b.path("spent").asText()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("mandate " + m.id + ": unreadable budget column", e);
        }
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }
}
