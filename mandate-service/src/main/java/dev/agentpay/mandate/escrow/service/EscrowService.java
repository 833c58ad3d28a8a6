package dev.agentpay.mandate.escrow.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.escrow.domain.EscrowState;
import dev.agentpay.mandate.escrow.domain.EscrowView;
import dev.agentpay.mandate.escrow.repository.EscrowRepository;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * A mandate's escrow on chain (issue 30; mandate-service README, "Escrow"): applies settlement-watcher's
 * {@code escrow-events} ({@link #apply}) and sends the operator commands of the dispute workflow
 * ({@link #freeze}, {@link #resolve}) on {@code escrow-commands}, each through the outbox in the transaction of the
 * change that decides it. mandate-service shows what the chain says: the totals and state of every event are the
 * contract's own at that block.
 */
@ApplicationScoped
public class EscrowService {

    public static final String ESCROW_FUNDED = "mandate.escrow_funded";
    public static final String ESCROW_RELEASED = "mandate.escrow_released";
    public static final String ESCROW_REFUNDED = "mandate.escrow_refunded";
    public static final String ESCROW_RESOLVED = "mandate.escrow_resolved";

    /** The contract events announced on {@code mandate-events} (and so as webhooks), by escrow event type. */
    static final Map<String, String> ANNOUNCED = Map.of(EscrowEvent.FUNDED, ESCROW_FUNDED, EscrowEvent.RELEASED, ESCROW_RELEASED,
            EscrowEvent.REFUNDED, ESCROW_REFUNDED, EscrowEvent.RESOLVED, ESCROW_RESOLVED);

    /** Contract events this service records. */
    public static final Set<String> CONTRACT_EVENTS = Set.of(EscrowEvent.FUNDED, EscrowEvent.RELEASED, EscrowEvent.WITHDRAWN,
            EscrowEvent.FROZEN, EscrowEvent.RESOLVED, EscrowEvent.REFUNDED);

    private static final Logger LOG = Logger.getLogger(EscrowService.class);

    @Inject
    EscrowRepository escrows;

    @Inject
    MandateRepository mandates;

    @Inject
    Outbox outbox;

    @Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    @Inject
    dev.agentpay.commons.consumer.IdempotentConsumer idempotent;

    /** Applies the record once for {@code consumer}: its event id is marked processed in the effect's transaction. */
    public Uni<Void> applyOnce(EscrowEvent e, String consumer) {
        return pool.withTransaction(conn -> idempotent.once(conn, e.eventId(), consumer, tx -> apply(tx, e))).replaceWithVoid();
    }

    /**
     * What a record needs before it can be applied, else {@code IllegalArgumentException} (the consumer dead-letters it):
     * ids and type; a contract event its chain, contract, escrow, mandate hash, transaction, position and totals; a rollback
     * the removed event's id; a command failure the command's id.
     */
    public static void validate(EscrowEvent e) {
        if (e.eventId() == null || e.type() == null) {
            throw new IllegalArgumentException("no event id or type");
        }
        if (EscrowEvent.ROLLED_BACK.equals(e.type())) {
            UUID.fromString(require(e.rolledBackEventId(), "rolledBackEventId"));
            return;
        }
        if (EscrowEvent.COMMAND_FAILED.equals(e.type())) {
            UUID.fromString(require(e.commandId(), "commandId"));
            return;
        }
        if (!CONTRACT_EVENTS.contains(e.type())) {
            return;
        }
        require(e.chain(), "chain");
        require(e.contract(), "contract");
        require(e.escrowId(), "escrowId");
        require(e.txHash(), "txHash");
        if (!require(e.mandateHash(), "mandateHash").matches("0x[0-9a-fA-F]{64}")) {
            throw new IllegalArgumentException("mandateHash is not 0x + 64 hex");
        }
        if (e.logIndex() == null || e.blockNumber() == null || e.totals() == null || e.state() == null) {
            throw new IllegalArgumentException("logIndex, blockNumber, totals or state missing");
        }
        EscrowEvent.Totals t = e.totals();
        java.util.List<String> amounts = new java.util.ArrayList<>(java.util.Arrays.asList(t.funded(), t.released(), t.withdrawn(),
                t.refunded(), t.held()));
        for (String optional : new String[] {e.amount(), e.toCounterparty(), e.toProposer()}) {
            if (optional != null) {
                amounts.add(optional);
            }
        }
        for (String amount : amounts) {
            if (amount == null || !amount.matches("[0-9]{1,38}")) {
                throw new IllegalArgumentException("an amount is not atomic units as a decimal string: " + amount);
            }
        }
    }

    private static String require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " missing");
        }
        return value;
    }

    /**
     * Applies one {@code escrow-events} record in the consumer's transaction (the event id is marked processed in it):
     * a contract event is recorded on its mandate (locked, as every change of a mandate) and the four money events are
     * announced; a rollback marks the removed event so the view falls back to the one before; a command failure is
     * recorded on the command. Records of a mandate this service does not know change nothing.
     */
    public Uni<Void> apply(SqlClient tx, EscrowEvent e) {
        Instant now = Times.now();
        if (EscrowEvent.ROLLED_BACK.equals(e.type())) {
            UUID removed = UUID.fromString(e.rolledBackEventId());
            return escrows.rollBack(tx, removed).invoke(mandateId -> {
                if (mandateId != null) {
                    LOG.warnf("escrow event %s of mandate %s rolled back by a reorg (its escrow reads the event before)", removed, mandateId);
                }
            }).replaceWithVoid();
        }
        if (EscrowEvent.COMMAND_FAILED.equals(e.type())) {
            return escrows.commandFailed(tx, UUID.fromString(e.commandId()), e.reason(), now).invoke(mandateId ->
                    LOG.errorf("escrow command %s (mandate %s) refused by the contract: %s", e.commandId(), mandateId, e.reason()))
                    .replaceWithVoid();
        }
        if (!CONTRACT_EVENTS.contains(e.type())) {
            return Uni.createFrom().voidItem();
        }
        String hash = e.mandateHash().toLowerCase(java.util.Locale.ROOT);
        return escrows.mandateByHash(tx, hash).flatMap(ref -> {
            if (ref == null) {
                LOG.warnf("escrow event %s names mandate hash %s, which this service does not know: ignored", e.eventId(), hash);
                return Uni.createFrom().voidItem();
            }
            return mandates.lock(tx, ref.id(), ref.partnerId()).flatMap(m -> escrows.insertEvent(tx, m.id, e, now).flatMap(fresh -> {
                if (!fresh) {
                    return Uni.createFrom().voidItem();
                }
                Uni<Void> done = switch (e.type()) {
                    case EscrowEvent.FROZEN -> escrows.commandsDone(tx, m.id, EscrowCommand.FREEZE, now);
                    case EscrowEvent.RESOLVED -> escrows.commandsDone(tx, m.id, EscrowCommand.RESOLVE, now);
                    case EscrowEvent.RELEASED -> e.ref() == null ? Uni.createFrom().voidItem()
                            : escrows.releaseDone(tx, m.id, e.ref().toLowerCase(java.util.Locale.ROOT), now);
                    default -> Uni.createFrom().voidItem();
                };
                String announced = ANNOUNCED.get(e.type());
                if (announced == null) {
                    return done;
                }
                return done.flatMap(v -> escrows.state(tx, m.id)).flatMap(state -> outbox.append(tx, event(announced, m, state, e, now)));
            }));
        });
    }

    /** What the mandate's escrow holds for a dispute's resolution: its held amount, or 0 without an escrow. */
    public static BigInteger held(Mandate m) {
        return m.escrow == null ? BigInteger.ZERO : m.escrow.held();
    }

    /**
     * A dispute opened on a mandate whose escrow holds money: {@code escrow.freeze} to settlement-watcher, in the dispute's
     * transaction. Nothing without an active escrow that holds money.
     */
    public Uni<Void> freeze(SqlClient tx, Mandate m, Instant now) {
        EscrowState e = m.escrow;
        if (e == null || !e.holding() || !EscrowState.ACTIVE.equals(e.state())) {
            return Uni.createFrom().voidItem();
        }
        return command(tx, m, EscrowCommand.FREEZE, null, null, null, null, now);
    }

    /**
     * Whether a charge of {@code amount} is paid from the mandate's escrow: an active escrow (not frozen, resolved or
     * refunded) whose held amount, less the releases sent and not yet seen on chain, covers it. Called with the mandate
     * row locked, so two charges never count the same money.
     */
    public Uni<Boolean> paysFromEscrow(SqlClient tx, Mandate m, BigInteger amount) {
        EscrowState e = m.escrow;
        if (e == null || !EscrowState.ACTIVE.equals(e.state()) || e.held().compareTo(amount) < 0) {
            return Uni.createFrom().item(false);
        }
        return escrows.releasesInFlight(tx, m.id).map(pending -> e.held().subtract(pending).compareTo(amount) >= 0);
    }

    /**
     * A charge under a funded mandate is paid from escrow: {@code escrow.release} of its amount with {@code ref} =
     * keccak-256 of the charge id, in the charge's transaction (the one that links its invoice). At most one release per
     * charge, ever (a unique index on the command's charge id here, the used {@code ref} on chain).
     */
    public Uni<Void> release(SqlClient tx, Mandate m, String chargeId, BigInteger amount, Instant now) {
        return command(tx, m, EscrowCommand.RELEASE, chargeId, amount, null, null, now);
    }

    /** A dispute decided: {@code escrow.resolve} with the split, in the resolution's transaction; nothing when nothing is held. */
    public Uni<Void> resolve(SqlClient tx, Mandate m, BigInteger toCounterparty, BigInteger toProposer, Instant now) {
        EscrowState e = m.escrow;
        if (e == null || !e.holding()) {
            return Uni.createFrom().voidItem();
        }
        return command(tx, m, EscrowCommand.RESOLVE, null, null, toCounterparty, toProposer, now);
    }

    private Uni<Void> command(SqlClient tx, Mandate m, String type, String chargeId, BigInteger amount, BigInteger toCounterparty,
            BigInteger toProposer, Instant now) {
        EscrowState e = m.escrow;
        UUID id = UUID.randomUUID();
        String ref = chargeId == null ? null : dev.agentpay.mandate.escrow.domain.EscrowRefs.ref(chargeId);
        EscrowCommand c = new EscrowCommand(new EventHeader(id, type, e.mandateHash(), m.partnerId, now, EscrowCommand.SCHEMA_VERSION),
                id.toString(), e.chain(), e.escrowId(), e.mandateHash(), amount == null ? null : amount.toString(), ref, chargeId,
                toCounterparty == null ? null : toCounterparty.toString(), toProposer == null ? null : toProposer.toString());
        return escrows.insertCommand(tx, id, m.id, type, chargeId, ref, amount, toCounterparty, toProposer, now)
                .flatMap(v -> outbox.append(tx, c));
    }

    /** {@code mandate.escrow_*}: not a state change (no transition, never anchored); data {mandate_id, escrow, escrow_event}. */
    private static MandateEvent event(String type, Mandate m, EscrowState state, EscrowEvent e, Instant now) {
        ObjectNode data = EventCodec.mapper().createObjectNode();
        data.put("mandate_id", m.id);
        data.set("escrow", EventCodec.mapper().valueToTree(EscrowView.of(state)));
        ObjectNode ev = data.putObject("escrow_event");
        ev.put("type", e.type());
        ev.put("chain", e.chain());
        ev.put("tx_hash", e.txHash());
        ev.put("log_index", e.logIndex());
        ev.put("block_number", e.blockNumber());
        ev.put("amount", e.amount() == null ? null : Usdc.text(new BigInteger(e.amount())));
        ev.put("ref", e.ref());
        ev.put("to_counterparty", e.toCounterparty() == null ? null : Usdc.text(new BigInteger(e.toCounterparty())));
        ev.put("to_proposer", e.toProposer() == null ? null : Usdc.text(new BigInteger(e.toProposer())));
        JsonNode payload = data;
        return new MandateEvent(EventHeader.of(type, m.id, m.partnerId, now, MandateEvent.SCHEMA_VERSION), null, null, null,
                m.protoMandateHash, payload);
    }
}
