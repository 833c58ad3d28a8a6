package dev.agentpay.webhook.subscription.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.webhook.subscription.domain.Subscription;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Subscriptions in PostgreSQL; every query is scoped to the owning partner. */
@ApplicationScoped
public class SubscriptionRepository {

    private static final String COLUMNS = "id, partner_id, url, events, description, secret, previous_secret,"
            + " previous_secret_expires_at, status, disabled_reason, disabled_at, failing_since, created_at, updated_at";

    public Uni<Subscription> insert(SqlClient c, String partnerId, String url, List<String> events, String description, String secret) {
        return c.preparedQuery("insert into webhook_subscription (id, partner_id, url, events, description, secret)"
                        + " values ($1, $2, $3, $4, $5, $6) returning " + COLUMNS)
                .execute(Tuple.of(UUID.randomUUID(), partnerId, url, events.toArray(String[]::new), description, secret))
                .map(SubscriptionRepository::one);
    }

    public Uni<Long> countForPartner(SqlClient c, String partnerId) {
        return c.preparedQuery("select count(*) from webhook_subscription where partner_id = $1")
                .execute(Tuple.of(partnerId))
                .map(rs -> rs.iterator().next().getLong(0));
    }

    public Uni<List<Subscription>> listForPartner(SqlClient c, String partnerId) {
        return c.preparedQuery("select " + COLUMNS + " from webhook_subscription where partner_id = $1"
                        + " order by created_at, id")
                .execute(Tuple.of(partnerId))
                .map(SubscriptionRepository::all);
    }

    public Uni<Subscription> find(SqlClient c, String partnerId, UUID id) {
        return c.preparedQuery("select " + COLUMNS + " from webhook_subscription where partner_id = $1 and id = $2")
                .execute(Tuple.of(partnerId, id))
                .map(SubscriptionRepository::oneOrNull);
    }

    /** Replaces url, events and description (null keeps the stored value). */
    public Uni<Subscription> update(SqlClient c, String partnerId, UUID id, String url, List<String> events, String description) {
        return c.preparedQuery("update webhook_subscription set url = coalesce($3, url),"
                        + " events = coalesce($4, events), description = coalesce($5, description), updated_at = now()"
                        + " where partner_id = $1 and id = $2 returning " + COLUMNS)
                .execute(Tuple.from(Arrays.asList(partnerId, id, url,
                        events == null ? null : events.toArray(String[]::new), description)))
                .map(SubscriptionRepository::oneOrNull);
    }

    /** Makes {@code secret} current and keeps the old one valid for {@code overlap} (none when zero). */
    public Uni<Subscription> rotate(SqlClient c, String partnerId, UUID id, String secret, Duration overlap) {
        boolean keep = !overlap.isZero();
        return c.preparedQuery("update webhook_subscription set"
                        + " previous_secret = case when $4 then secret end,"
                        + " previous_secret_expires_at = case when $4 then now() + $5 * interval '1 millisecond' end,"
                        + " secret = $3, updated_at = now()"
                        + " where partner_id = $1 and id = $2 returning " + COLUMNS)
                .execute(Tuple.of(partnerId, id, secret, keep, overlap.toMillis()))
                .map(SubscriptionRepository::oneOrNull);
    }

    public Uni<Subscription> enable(SqlClient c, String partnerId, UUID id) {
        return c.preparedQuery("update webhook_subscription set status = 'active', disabled_reason = null,"
                        + " disabled_at = null, failing_since = null, updated_at = now()"
                        + " where partner_id = $1 and id = $2 returning " + COLUMNS)
                .execute(Tuple.of(partnerId, id))
                .map(SubscriptionRepository::oneOrNull);
    }

    /**
     * Disables a subscription (if still active) and abandons its pending deliveries, inside the caller's
     * transaction. Emits the number of subscriptions changed (0 or 1).
     */
    public Uni<Integer> disable(SqlClient tx, UUID id, String reason) {
        return tx.preparedQuery("update webhook_subscription set status = 'disabled', disabled_reason = $2,"
                        + " disabled_at = now(), updated_at = now() where id = $1 and status = 'active'")
                .execute(Tuple.of(id, reason))
                .flatMap(rs -> rs.rowCount() == 0 ? Uni.createFrom().item(0)
                        : tx.preparedQuery("update webhook_delivery set status = 'failed', completed_at = now(),"
                                        + " last_error = 'subscription disabled', lease_until = null"
                                        + " where subscription_id = $1 and status = 'pending'")
                                .execute(Tuple.of(id))
                                .replaceWith(1));
    }

    /**
     * Deletes the partner's subscription with its deliveries and attempts, inside {@code tx}, then the stored events no
     * other subscription's delivery refers to (they used to stay behind: the history pruner only removes the events of
     * the deliveries it prunes; found by the soak). Emits whether the subscription existed.
     */
    public Uni<Boolean> delete(SqlClient tx, String partnerId, UUID id) {
        return tx.preparedQuery("with sub as (delete from webhook_subscription where partner_id = $1 and id = $2 returning id),"
                        + " gone as (delete from webhook_delivery d using sub where d.subscription_id = sub.id returning d.event_id)"
                        + " select (select count(*) from sub)::int as deleted, array(select distinct event_id from gone) as events")
                .execute(Tuple.of(partnerId, id))
                .flatMap(rs -> {
                    Row r = rs.iterator().next();
                    UUID[] events = r.getArrayOfUUIDs("events");
                    boolean deleted = r.getInteger("deleted") == 1;
                    if (!deleted || events == null || events.length == 0) {
                        return Uni.createFrom().item(deleted);
                    }
                    return tx.preparedQuery("delete from webhook_event e where e.id = any($1)"
                                    + " and not exists (select 1 from webhook_delivery d where d.event_id = e.id)")
                            .execute(Tuple.of(events))
                            .replaceWith(true);
                });
    }

    static Subscription map(Row r) {
        String[] events = r.getArrayOfStrings("events");
        return new Subscription(r.getUUID("id"), r.getString("partner_id"), r.getString("url"),
                events == null ? List.of() : List.of(events), r.getString("description"), r.getString("secret"),
                r.getString("previous_secret"), r.getOffsetDateTime("previous_secret_expires_at"),
                r.getString("status"), r.getString("disabled_reason"), r.getOffsetDateTime("disabled_at"),
                r.getOffsetDateTime("failing_since"), r.getOffsetDateTime("created_at"), r.getOffsetDateTime("updated_at"));
    }

    private static Subscription one(RowSet<Row> rs) {
        return map(rs.iterator().next());
    }

    private static Subscription oneOrNull(RowSet<Row> rs) {
        return rs.size() == 0 ? null : map(rs.iterator().next());
    }

    private static List<Subscription> all(RowSet<Row> rs) {
        return Rows.list(rs, r -> map(r));
    }
}
