package dev.agentpay.settlement.escrow.messaging;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.settlement.escrow.domain.NewCommand;
import dev.agentpay.settlement.escrow.service.EscrowOperator;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Receives MandateEscrow operator commands from {@code escrow-commands} (mandate-service's outbox) and records each
 * once by its {@code commandId} (insert-if-absent, the offset committed after it); {@link EscrowOperator} executes
 * them. A command that can never be executed as written (undecodable, missing or malformed fields, an unknown type)
 * goes to {@code dlt.settlement-watcher.escrow-commands} with its reason.
 */
@ApplicationScoped
public class EscrowCommandConsumer {

    /** Incoming channel of {@code escrow-commands}. */
    public static final String CHANNEL = "escrow-commands-in";

    static final Consumer DISCIPLINE = new Consumer("settlement-watcher-escrow-commands", Topics.DLT_WATCHER_ESCROW_COMMANDS);

    @Inject
    EscrowOperator operator;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onCommand(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        return consumers.decodeThenApply(DISCIPLINE, SourceRecord.of(meta, payload), "invalid escrow-commands record: ",
                () -> command(EventCodec.decode(payload, EscrowCommand.class)), operator::accept);
    }

    /** The command with the calldata it sends; throws on anything malformed. */
    static NewCommand command(EscrowCommand c) {
        if (c.commandId() == null || c.commandId().isBlank() || c.commandId().length() > 100) {
            throw new IllegalArgumentException("commandId missing or longer than 100");
        }
        if (c.chain() == null || c.chain().isBlank()) {
            throw new IllegalArgumentException("chain missing");
        }
        String id = MandateEscrowAbi.hex32(require(c.escrowId(), "escrowId"));
        String mandate = MandateEscrowAbi.hex32(require(c.mandateHash(), "mandateHash"));
        String calldata = switch (c.type() == null ? "" : c.type()) {
            case EscrowCommand.RELEASE -> MandateEscrowAbi.release(id, positive(c.amount(), "amount"),
                    MandateEscrowAbi.hex32(require(c.ref(), "ref")));
            case EscrowCommand.FREEZE -> MandateEscrowAbi.freeze(id);
            case EscrowCommand.RESOLVE -> MandateEscrowAbi.resolve(id, atLeastZero(c.toCounterparty(), "toCounterparty"),
                    atLeastZero(c.toProposer(), "toProposer"));
            default -> throw new IllegalArgumentException("unknown command type " + c.type());
        };
        return new NewCommand(c.commandId(), c.chain().trim().toLowerCase(java.util.Locale.ROOT), c.type(), id, mandate, calldata);
    }

    private static String require(String v, String name) {
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " missing");
        }
        return v;
    }

    private static BigInteger atLeastZero(String v, String name) {
        BigInteger b = new BigInteger(require(v, name));
        if (b.signum() < 0 || b.bitLength() > 128) {
            throw new IllegalArgumentException(name + " out of range");
        }
        return b;
    }

    private static BigInteger positive(String v, String name) {
        BigInteger b = atLeastZero(v, name);
        if (b.signum() == 0) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        return b;
    }
}
