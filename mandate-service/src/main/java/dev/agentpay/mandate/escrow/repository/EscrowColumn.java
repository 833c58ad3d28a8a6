package dev.agentpay.mandate.escrow.repository;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.mandate.escrow.domain.EscrowState;
import io.vertx.mutiny.sqlclient.Row;
import java.math.BigInteger;

/**
 * The escrow of a mandate read in the same statement as the mandate (a scalar subquery over
 * {@code mandate_escrow_event}, so the mandate's {@code for update} locks only the mandate row): the escrow of the
 * earliest funding not rolled back, at its latest event not rolled back (by block, then log index).
 */
public final class EscrowColumn {

    /** A select-list item named {@code escrow}: the escrow as JSON text, or null. */
    public static final String SQL = "(select json_build_object('chain', e.chain, 'contract', e.contract, 'escrow_id', e.escrow_id,"
            + " 'mandate_hash', m2.proto_mandate_hash, 'funder', f.funder, 'counterparty', f.counterparty,"
            + " 'funded', e.funded_atomic::text, 'released', e.released_atomic::text, 'withdrawn', e.withdrawn_atomic::text,"
            + " 'refunded', e.refunded_atomic::text, 'held', e.held_atomic::text, 'state', e.state, 'stream_start', f.stream_start,"
            + " 'stream_end', f.stream_end, 'expires_at', f.expires_at)::text"
            + " from mandate_escrow_event f join mandate_escrow_event e on e.mandate_id = f.mandate_id and e.chain = f.chain"
            + " and e.escrow_id = f.escrow_id and not e.rolled_back join mandate m2 on m2.id = f.mandate_id"
            + " where f.mandate_id = mandate.id and f.type = 'escrow.funded' and not f.rolled_back"
            + " order by f.block_number, f.log_index, e.block_number desc, e.log_index desc limit 1) as escrow";

    private EscrowColumn() {
    }

    /** The row's {@code escrow} column, or null when the mandate has no escrow on chain. */
    public static EscrowState read(Row r) {
        String json = r.getString("escrow");
        return json == null ? null : parse(json);
    }

    static EscrowState parse(String json) {
        try {
            JsonNode e = EventCodec.mapper().readTree(json);
            return new EscrowState(e.path("chain").asText(), e.path("contract").asText(), e.path("escrow_id").asText(),
                    e.path("mandate_hash").asText(), text(e, "funder"), text(e, "counterparty"), atomic(e, "funded"),
                    atomic(e, "released"), atomic(e, "withdrawn"), atomic(e, "refunded"), atomic(e, "held"), e.path("state").asText(),
                    number(e, "stream_start"), number(e, "stream_end"), number(e, "expires_at"));
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new IllegalStateException("unreadable escrow column", ex);
        }
    }

    private static BigInteger atomic(JsonNode n, String field) {
        return new BigInteger(n.path(field).asText("0"));
    }

    private static String text(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asText() : null;
    }

    private static Long number(JsonNode n, String field) {
        return n.hasNonNull(field) ? n.get(field).asLong() : null;
    }
}
