package dev.agentpay.mandate.dispute.repository;

import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.agentpay.commons.sql.Rows;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.dispute.domain.DisputeCase;
import dev.agentpay.mandate.dispute.domain.Evidence;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * SQL for dispute cases and their evidence; every method runs on the caller's connection (and its transaction).
 * Every write is made by a transaction that holds the mandate row locked.
 */
@ApplicationScoped
public class DisputeRepository {

    private static final String CASE_COLUMNS = "mandate_id, partner_id, reason, opened_by, opened_at, deadline_at, status, outcome,"
            + " to_counterparty_atomic, to_proposer_atomic, note, resolved_at, resolution_transition";

    /** A mandate whose open dispute is past its deadline, as the deadline job claims it. */
    public record Due(String mandateId, String partnerId) {
    }

    public Uni<Void> insertCase(SqlClient sql, DisputeCase c) {
        return sql.preparedQuery("insert into mandate_dispute (" + CASE_COLUMNS + ") values ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
                        + " $10, $11, $12, $13)")
                .execute(Tuple.from(Arrays.asList(c.mandateId(), c.partnerId(), c.reason(), c.openedBy(), db(c.openedAt()),
                        db(c.deadlineAt()), c.status(), c.outcome(), decimal(c.toCounterpartyAtomic()),
                        decimal(c.toProposerAtomic()), c.note(), db(c.resolvedAt()), c.resolutionTransition())))
                .replaceWithVoid();
    }

    /** The mandate's dispute, or {@code null} when it was never disputed. */
    public Uni<DisputeCase> find(SqlClient sql, String mandateId) {
        return sql.preparedQuery("select " + CASE_COLUMNS + " from mandate_dispute where mandate_id = $1")
                .execute(Tuple.of(mandateId))
                .map(rs -> rs.size() == 0 ? null : mapCase(rs.iterator().next()));
    }

    /** Records the decision (only an open case changes; returns the rows changed). */
    public Uni<Integer> resolve(SqlClient sql, String mandateId, String outcome, BigInteger toCounterparty, BigInteger toProposer,
            String note, Instant at, UUID transitionId) {
        return sql.preparedQuery("update mandate_dispute set status = 'resolved', outcome = $2, to_counterparty_atomic = $3,"
                        + " to_proposer_atomic = $4, note = $5, resolved_at = $6, resolution_transition = $7"
                        + " where mandate_id = $1 and status = 'open'")
                .execute(Tuple.from(Arrays.asList(mandateId, outcome, decimal(toCounterparty), decimal(toProposer), note, db(at),
                        transitionId)))
                .map(rs -> rs.rowCount());
    }

    /**
     * Locks up to {@code limit} mandates whose open dispute is past its deadline ({@code for update of} the mandate row,
     * skipping those another transaction holds: a request resolving it, or another instance's job).
     */
    public Uni<List<Due>> lockDue(SqlClient sql, Instant now, int limit) {
        return sql.preparedQuery("select m.id, m.partner_id from mandate_dispute d join mandate m on m.id = d.mandate_id"
                        + " where d.status = 'open' and d.deadline_at <= $1 order by d.deadline_at limit $2"
                        + " for update of m skip locked")
                .execute(Tuple.of(db(now), limit))
                .map(rs -> Rows.list(rs, r -> new Due(r.getString("id"), r.getString("partner_id"))));
    }

    public Uni<Void> insertEvidence(SqlClient sql, Evidence e) {
        return sql.preparedQuery("insert into mandate_dispute_evidence (id, mandate_id, seq, party, body, links, sha256,"
                        + " submitted_by, transition_id, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
                .execute(Tuple.from(Arrays.asList(e.id(), e.mandateId(), e.seq(), e.party(), e.text(), ApiJson.write(e.links()),
                        e.sha256(), e.submittedBy(), e.transitionId(), db(e.createdAt()))))
                .replaceWithVoid();
    }

    /** Every piece of evidence of the mandate's dispute, oldest first, with the anchor of its transition row. */
    public Uni<List<Evidence>> evidence(SqlClient sql, String mandateId) {
        return sql.preparedQuery("select e.id, e.mandate_id, e.seq, e.party, e.body, e.links, e.sha256, e.submitted_by,"
                        + " e.transition_id, e.created_at, t.anchor_tx_hash, t.anchor_chain_id, t.anchor_block_number,"
                        + " t.anchor_log_index from mandate_dispute_evidence e join mandate_transition t on t.id = e.transition_id"
                        + " where e.mandate_id = $1 order by e.seq")
                .execute(Tuple.of(mandateId))
                .map(rs -> Rows.list(rs, DisputeRepository::mapEvidence));
    }

    private static Evidence mapEvidence(Row r) {
        List<String> links;
        try {
            links = ApiJson.MAPPER.readValue(r.getString("links"), new TypeReference<List<String>>() {
            });
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException("evidence " + r.getString("id") + ": links are not a JSON array", ex);
        }
        return new Evidence(r.getString("id"), r.getString("mandate_id"), r.getInteger("seq"), r.getString("party"),
                r.getString("body"), links, r.getString("sha256"), r.getString("submitted_by"), r.getUUID("transition_id"),
                instant(r, "created_at"), r.getString("anchor_tx_hash"), r.getLong("anchor_chain_id"),
                r.getLong("anchor_block_number"), r.getInteger("anchor_log_index"));
    }

    private static DisputeCase mapCase(Row r) {
        return new DisputeCase(r.getString("mandate_id"), r.getString("partner_id"), r.getString("reason"),
                r.getString("opened_by"), instant(r, "opened_at"), instant(r, "deadline_at"), r.getString("status"),
                r.getString("outcome"), atomic(r.getBigDecimal("to_counterparty_atomic")),
                atomic(r.getBigDecimal("to_proposer_atomic")), r.getString("note"), instant(r, "resolved_at"),
                r.getUUID("resolution_transition"));
    }

    private static BigInteger atomic(BigDecimal d) {
        return d == null ? null : d.toBigIntegerExact();
    }

    private static BigDecimal decimal(BigInteger i) {
        return i == null ? null : new BigDecimal(i);
    }
}
