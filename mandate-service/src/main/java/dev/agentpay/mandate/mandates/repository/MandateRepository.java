package dev.agentpay.mandate.mandates.repository;

import dev.agentpay.commons.sql.Rows;
import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.signing.SignatureScheme;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** SQL for mandates and their transitions; every method runs on the caller's connection (and its transaction). */
@ApplicationScoped
public class MandateRepository {

    private static final String COLUMNS = "id, partner_id, proposer_agent_id, counterparty_agent_id, scope, terms, context,"
            + " state, proto_mandate_hash, proto_version, proposer_signature, counterparty_signature,"
            + " signed_by_proposer_at, signed_by_counterparty_at, completed_at, dispute_reason, disputed_at, expires_at,"
            + " drs_receipt_id, created_at, updated_at, proposer_scheme, counterparty_scheme, eip712_chain_id, eip712_contract,"
            + " parties";

    /** The budget (issue 28) read with the mandate, as one JSON column ({@code BudgetColumn}); null without a budget. */
    private static final String WITH_BUDGET = ", " + dev.agentpay.mandate.budget.repository.BudgetColumn.SQL
            + ", " + dev.agentpay.mandate.escrow.repository.EscrowColumn.SQL;

    private static final String TRANSITION_COLUMNS = "id, mandate_id, seq, from_state, to_state, metadata, anchor_tx_hash,"
            + " anchor_block_number, anchor_chain_id, anchored_at, created_at, anchor_log_index, anchor_contract, anchor_signer";

    /** The partner's mandate, or {@code null} (also when it belongs to another partner). */
    public Uni<Mandate> find(SqlClient sql, String id, String partnerId) {
        return mandate(sql, "id = $1 and partner_id = $2", Tuple.of(id, partnerId));
    }

    /** Any partner's mandate (the public view), or {@code null}. */
    public Uni<Mandate> findAny(SqlClient sql, String id) {
        return mandate(sql, "id = $1", Tuple.of(id));
    }

    /**
     * The partner's mandate row-locked until the transaction ends: concurrent state changes of one
     * mandate run one after the other, and each sees the state the previous one left.
     */
    public Uni<Mandate> lock(SqlClient sql, String id, String partnerId) {
        return mandate(sql, "id = $1 and partner_id = $2 for update", Tuple.of(id, partnerId));
    }

    /** Any partner's mandate row-locked until the transaction ends (the operator's arbiter), or {@code null}. */
    public Uni<Mandate> lockAny(SqlClient sql, String id) {
        return mandate(sql, "id = $1 for update", Tuple.of(id));
    }

    /** The one mandate (with its budget and escrow) that {@code where} selects, or {@code null}. */
    private static Uni<Mandate> mandate(SqlClient sql, String where, Tuple args) {
        return sql.preparedQuery("select " + COLUMNS + WITH_BUDGET + " from mandate where " + where)
                .execute(args)
                .map(rs -> Rows.firstOrNull(rs, MandateRepository::map));
    }

    /** Locks up to {@code limit} live mandates whose expiry has passed, skipping those another transaction holds. */
    public Uni<List<Mandate>> lockExpired(SqlClient sql, Instant now, int limit) {
        return sql.preparedQuery("select " + COLUMNS + WITH_BUDGET + " from mandate where state = any($1) and expires_at <= $2"
                        + " order by expires_at limit $3 for update skip locked")
                .execute(Tuple.of(MandateState.liveWireNames().toArray(new String[0]), db(now), limit))
                .map(rs -> Rows.list(rs, r -> map(r)));
    }

    public Uni<Void> insert(SqlClient sql, Mandate m) {
        return sql.preparedQuery("insert into mandate (" + COLUMNS + ") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
                        + " $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)")
                .execute(Tuple.from(Arrays.asList(m.id, m.partnerId, m.proposerAgentId, m.counterpartyAgentId, m.scope,
                        m.terms, m.context, m.state.wire(), m.protoMandateHash, m.protoVersion, m.proposerSignature,
                        m.counterpartySignature, db(m.signedByProposerAt), db(m.signedByCounterpartyAt),
                        db(m.completedAt), m.disputeReason, db(m.disputedAt), db(m.expiresAt), m.drsReceiptId,
                        db(m.createdAt), db(m.updatedAt), m.proposerScheme.wire(),
                        m.counterpartyScheme == null ? null : m.counterpartyScheme.wire(), m.eip712ChainId, m.eip712Contract,
                        PartiesColumn.write(m.parties))))
                .replaceWithVoid();
    }

    /** Writes the fields the state machine changes. */
    public Uni<Void> updateState(SqlClient sql, Mandate m) {
        return sql.preparedQuery("update mandate set state = $2, proposer_signature = $3, counterparty_signature = $4,"
                        + " signed_by_proposer_at = $5, signed_by_counterparty_at = $6, completed_at = $7,"
                        + " dispute_reason = $8, disputed_at = $9, drs_receipt_id = $10, updated_at = $11, parties = $12 where id = $1")
                .execute(Tuple.from(Arrays.asList(m.id, m.state.wire(), m.proposerSignature, m.counterpartySignature,
                        db(m.signedByProposerAt), db(m.signedByCounterpartyAt), db(m.completedAt), m.disputeReason,
                        db(m.disputedAt), m.drsReceiptId, db(m.updatedAt), PartiesColumn.write(m.parties))))
                .replaceWithVoid();
    }

    public Uni<Void> insertTransition(SqlClient sql, Transition t) {
        return sql.preparedQuery("insert into mandate_transition (" + TRANSITION_COLUMNS
                        + ") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)")
                .execute(Tuple.from(Arrays.asList(t.id(), t.mandateId(), t.seq(),
                        t.fromState() == null ? null : t.fromState().wire(), t.toState().wire(), t.metadata(),
                        t.anchorTxHash(), t.anchorBlockNumber(), t.anchorChainId(), db(t.anchoredAt()),
                        db(t.createdAt()), t.anchorLogIndex(), t.anchorContract(), t.anchorSigner())))
                .replaceWithVoid();
    }

    /** Every chain's anchors of a transition as one JSON array column ({@code anchors}), by chain id. */
    private static final String WITH_ANCHORS = ", (select coalesce(json_agg(json_build_object('chain_id', a.chain_id,"
            + " 'tx_hash', a.tx_hash, 'block_number', a.block_number, 'log_index', a.log_index, 'contract', a.contract,"
            + " 'signer', a.signer, 'anchored_at', a.anchored_at) order by a.chain_id), '[]'::json)"
            + " from transition_anchor a where a.transition_id = mandate_transition.id) as anchors";

    @Inject
    AnchorChains anchorChains;

    /** The mandate's transitions, oldest first, each with every chain's anchor. */
    public Uni<List<Transition>> transitions(SqlClient sql, String mandateId) {
        List<Long> chains = anchorChains.ids();
        return sql.preparedQuery("select " + TRANSITION_COLUMNS + WITH_ANCHORS + " from mandate_transition where mandate_id = $1 order by seq")
                .execute(Tuple.of(mandateId))
                .map(rs -> Rows.list(rs, r -> mapTransition(r, chains)));
    }

    /**
     * Records one chain's on-chain anchor of one transition (a later receipt of the same chain replaces it): the
     * primary chain's also on the transition row ({@code anchor_*}). Returns how many anchors were written: 0 when the
     * transition is unknown, belongs to another mandate, or is the creation row (never anchored, per the spec).
     */
    public Uni<Integer> anchor(SqlClient sql, UUID transitionId, String mandateId, String txHash, long blockNumber,
            long chainId, int logIndex, String contract, String signer, Instant anchoredAt) {
        return sql.preparedQuery("insert into transition_anchor (transition_id, chain_id, tx_hash, block_number, log_index,"
                        + " contract, signer, anchored_at) select t.id, $3, $4, $5, $6, $7, $8, $9 from mandate_transition t"
                        + " where t.id = $1 and t.mandate_id = $2 and t.from_state is not null"
                        // a re-anchor on the same chain (a new receipt event) replaces that chain's anchor, as before
                        + " on conflict (transition_id, chain_id) do update set tx_hash = excluded.tx_hash,"
                        + " block_number = excluded.block_number, log_index = excluded.log_index, contract = excluded.contract,"
                        + " signer = excluded.signer, anchored_at = excluded.anchored_at")
                .execute(Tuple.from(Arrays.asList(transitionId, mandateId, chainId, txHash, blockNumber, logIndex, contract,
                        signer, db(anchoredAt))))
                .flatMap(rs -> rs.rowCount() == 0 || chainId != anchorChains.primary() ? Uni.createFrom().item(rs.rowCount())
                        : sql.preparedQuery("update mandate_transition set anchor_tx_hash = $3, anchor_block_number = $4,"
                                        + " anchor_chain_id = $5, anchored_at = $6, anchor_log_index = $7, anchor_contract = $8,"
                                        + " anchor_signer = $9 where id = $1 and mandate_id = $2")
                                .execute(Tuple.from(Arrays.asList(transitionId, mandateId, txHash, blockNumber, chainId,
                                        db(anchoredAt), logIndex, contract, signer)))
                                .replaceWith(rs.rowCount()));
    }

    /**
     * A page of the partner's mandates, newest first ({@code created_at}, then {@code id}, descending), optionally of
     * one state, strictly after the keyset position {@code (beforeCreatedAt, beforeId)} when given.
     */
    public Uni<List<Mandate>> page(SqlClient sql, String partnerId, MandateState state, Instant beforeCreatedAt, String beforeId,
            int limit) {
        return sql.preparedQuery("select " + COLUMNS + WITH_BUDGET + " from mandate where partner_id = $1 and ($2::text is null or state = $2)"
                        + " and ($3::timestamptz is null or (created_at, id) < ($3, $4)) order by created_at desc, id desc limit $5")
                .execute(Tuple.of(partnerId, state == null ? null : state.wire(), beforeCreatedAt == null ? null : db(beforeCreatedAt),
                        beforeId, limit))
                .map(rs -> Rows.list(rs, MandateRepository::map));
    }

    private static Mandate map(Row r) {
        Mandate m = new Mandate();
        m.id = r.getString("id");
        m.partnerId = r.getString("partner_id");
        m.proposerAgentId = r.getString("proposer_agent_id");
        m.counterpartyAgentId = r.getString("counterparty_agent_id");
        m.scope = r.getString("scope");
        m.terms = r.getString("terms");
        m.context = r.getString("context");
        m.state = MandateState.fromWire(r.getString("state"));
        m.protoMandateHash = r.getString("proto_mandate_hash");
        m.protoVersion = r.getString("proto_version");
        m.proposerSignature = r.getString("proposer_signature");
        m.counterpartySignature = r.getString("counterparty_signature");
        m.signedByProposerAt = instant(r, "signed_by_proposer_at");
        m.signedByCounterpartyAt = instant(r, "signed_by_counterparty_at");
        m.completedAt = instant(r, "completed_at");
        m.disputeReason = r.getString("dispute_reason");
        m.disputedAt = instant(r, "disputed_at");
        m.expiresAt = instant(r, "expires_at");
        m.drsReceiptId = r.getString("drs_receipt_id");
        m.createdAt = instant(r, "created_at");
        m.updatedAt = instant(r, "updated_at");
        m.proposerScheme = SignatureScheme.fromWire(r.getString("proposer_scheme"));
        m.counterpartyScheme = SignatureScheme.fromWire(r.getString("counterparty_scheme"));
        m.eip712ChainId = r.getLong("eip712_chain_id");
        m.eip712Contract = r.getString("eip712_contract");
        m.parties = PartiesColumn.read(r.getString("parties"));
        dev.agentpay.mandate.budget.repository.BudgetColumn.read(r, m);
        m.escrow = dev.agentpay.mandate.escrow.repository.EscrowColumn.read(r);
        return m;
    }

    private static Transition mapTransition(Row r, List<Long> chains) {
        String from = r.getString("from_state");
        List<Transition.ChainAnchor> anchors = new java.util.ArrayList<>();
        Object json = r.getValue("anchors");
        io.vertx.core.json.JsonArray array = json instanceof io.vertx.core.json.JsonArray a ? a
                : new io.vertx.core.json.JsonArray(String.valueOf(json));
        for (int i = 0; i < array.size(); i++) {
            io.vertx.core.json.JsonObject a = array.getJsonObject(i);
            anchors.add(new Transition.ChainAnchor(a.getLong("chain_id"), a.getString("tx_hash"), a.getLong("block_number"),
                    a.getInteger("log_index"), a.getString("contract"), a.getString("signer"),
                    java.time.OffsetDateTime.parse(a.getString("anchored_at")).toInstant()));
        }
        return new Transition(r.getUUID("id"), r.getString("mandate_id"), r.getInteger("seq"),
                from == null ? null : MandateState.fromWire(from), MandateState.fromWire(r.getString("to_state")),
                r.getString("metadata"), r.getString("anchor_tx_hash"), r.getLong("anchor_block_number"),
                r.getLong("anchor_chain_id"), instant(r, "anchored_at"), instant(r, "created_at"),
                r.getInteger("anchor_log_index"), r.getString("anchor_contract"), r.getString("anchor_signer"),
                List.copyOf(anchors), chains);
    }
}
