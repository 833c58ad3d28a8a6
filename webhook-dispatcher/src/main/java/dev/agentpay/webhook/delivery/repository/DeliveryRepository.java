package dev.agentpay.webhook.delivery.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.webhook.delivery.domain.Attempt;
import dev.agentpay.webhook.delivery.domain.Delivery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Events, deliveries and attempts: fan-out, the claim of due work, results and the delivery log. */
@ApplicationScoped
public class DeliveryRepository {

    /** Serializes claims across instances so the per-endpoint concurrency limit holds exactly. */
    private static final long CLAIM_LOCK = 0x77686f6f6bL; // "whook"

    private static final String MATCH = "s.status = 'active' and $3::text = any(s.events) and ($5::boolean or s.partner_id = $4::varchar)";

    /**
     * Stores the envelope and one pending delivery per matching subscription, inside {@code tx}. A
     * resource event matches only its owner's subscriptions; a broadcast event every subscriber.
     * Emits the number of deliveries created.
     */
    public Uni<Integer> fanOut(SqlClient tx, UUID eventId, String type, String aggregateId, String partnerId,
            boolean broadcast, String orderingKey, String body, UUID excludeSubscription) {
        Tuple eventArgs = Tuple.from(Arrays.asList(eventId, aggregateId, type, partnerId, broadcast, body, excludeSubscription));
        return tx.preparedQuery("insert into webhook_event (id, aggregate_id, type, partner_id, body)"
                        + " select $1::uuid, $2::varchar, $3::text, $4::varchar, $6::text where exists (select 1 from webhook_subscription s where " + MATCH
                        + " and s.id is distinct from $7::uuid)")
                .execute(eventArgs)
                .flatMap(rs -> rs.rowCount() == 0 ? Uni.createFrom().item(0)
                        : tx.preparedQuery("insert into webhook_delivery (id, subscription_id, event_id, ordering_key)"
                                        + " select gen_random_uuid(), s.id, $1::uuid, $2::varchar from webhook_subscription s"
                                        + " where s.status = 'active' and $3::text = any(s.events)"
                                        + " and ($5::boolean or s.partner_id = $4::varchar)"
                                        + " and s.id is distinct from $6::uuid on conflict do nothing")
                                .execute(Tuple.from(Arrays.asList(eventId, orderingKey, type, partnerId, broadcast,
                                        excludeSubscription)))
                                .map(r -> r.rowCount()));
    }

    /** One consumed event to fan out: its envelope and where its deliveries go. */
    public record FanOutEvent(UUID eventId, String type, String aggregateId, String partnerId, boolean broadcast,
            String orderingKey, String body) {
    }

    /**
     * {@link #fanOut} for a whole poll batch in one statement, inside {@code tx}: stores the envelope and
     * one pending delivery per matching subscription, in input order (delivery {@code seq} follows it).
     * Event ids must be distinct (the caller has already dropped events processed before). Emits how many
     * deliveries were queued.
     */
    public Uni<Integer> fanOutBatch(SqlClient tx, List<FanOutEvent> events) {
        return tx.preparedQuery("""
                        with input as (
                            select * from unnest($1::uuid[], $2::text[], $3::varchar[], $4::varchar[], $5::bool[], $6::varchar[], $7::text[])
                                with ordinality as t(id, type, aggregate_id, partner_id, broadcast, ordering_key, body, n)),
                        matched as (
                            select i.id, i.type, i.aggregate_id, i.partner_id, i.ordering_key, i.body, i.n, s.id as subscription_id
                            from input i join webhook_subscription s on s.status = 'active' and i.type = any(s.events)
                                and (i.broadcast or s.partner_id = i.partner_id)),
                        stored as (
                            insert into webhook_event (id, aggregate_id, type, partner_id, body)
                            select distinct on (id) id, aggregate_id, type, partner_id, body from matched order by id),
                        queued as (
                            insert into webhook_delivery (id, subscription_id, event_id, ordering_key)
                            select gen_random_uuid(), subscription_id, id, ordering_key from matched order by n, subscription_id
                            on conflict do nothing returning 1)
                        select count(*)::int from queued
                        """)
                .execute(Tuple.tuple().addArrayOfUUID(column(events, FanOutEvent::eventId, UUID[]::new))
                        .addArrayOfString(column(events, FanOutEvent::type, String[]::new))
                        .addArrayOfString(column(events, FanOutEvent::aggregateId, String[]::new))
                        .addArrayOfString(column(events, FanOutEvent::partnerId, String[]::new))
                        .addArrayOfBoolean(column(events, FanOutEvent::broadcast, Boolean[]::new))
                        .addArrayOfString(column(events, FanOutEvent::orderingKey, String[]::new))
                        .addArrayOfString(column(events, FanOutEvent::body, String[]::new)))
                .map(rs -> rs.iterator().next().getInteger(0));
    }

    /** What the worker needs to send one claimed attempt. */
    public record Claimed(UUID deliveryId, UUID subscriptionId, String partnerId, UUID eventId, String eventType, int attempts,
            int scheduleIndex, boolean manual, String url, String secret, String previousSecret, String body) {
    }

    /** Milliseconds until the earliest future retry is due, or null when none is scheduled. */
    public Uni<Long> millisUntilNextDue(SqlClient c) {
        return c.query("select (extract(epoch from (min(next_attempt_at) - now())) * 1000)::bigint from webhook_delivery"
                        + " where status = 'pending' and next_attempt_at > now()")
                .execute()
                .map(rs -> rs.iterator().next().getLong(0));
    }

    /**
     * Reserves up to {@code limit} due deliveries for {@code leaseMillis}: only active subscriptions,
     * only the oldest pending delivery of each resource (ordering), and no more than
     * {@code perEndpoint} attempts in flight per subscription. {@code tx} must be a transaction (it holds
     * the claim lock until its commit).
     */
    public Uni<List<Claimed>> claim(SqlClient tx, int limit, int perEndpoint, long leaseMillis) {
        // A lease lost in a PostgreSQL crash only makes the delivery claimable again (at-least-once, as a
        // dispatcher crash does), so the claim's commit need not wait for its WAL flush; the next
        // synchronous commit (the attempt's record) flushes it anyway.
        // An instance frozen inside its claim (the lock held) has its session ended by the server after 5 s, so
        // the other instances go on claiming (issue 29).
        // Both per-subscription checks are scalar subqueries (one index probe each: webhook_delivery_sub_due, and the
        // head of the resource's queue in webhook_delivery_order), whatever the statistics say. As a semi-join and an
        // anti-join the planner, with statistics from an emptied table, scanned every pending delivery of the
        // subscription once per candidate: 54 ms for 40,000 pending against 0.3 ms now (bench/RESULTS.md, "Soak").
        // The claim's statement may not run longer than 10 s: it holds the claim lock, and a claim that ran for minutes
        // (a plan gone wrong) stopped every instance's deliveries (found by the soak, bench/RESULTS.md).
        return tx.preparedQuery("select pg_try_advisory_xact_lock($1), set_config('synchronous_commit', 'off', true),"
                        + " set_config('idle_in_transaction_session_timeout', '5000', true),"
                        + " set_config('statement_timeout', '10000', true)")
                .execute(Tuple.of(CLAIM_LOCK))
                .flatMap(rs -> !rs.iterator().next().getBoolean(0) ? Uni.createFrom().item(List.<Claimed>of())
                        : tx.preparedQuery("""
                                with inflight as (
                                    select subscription_id, count(*) as n from webhook_delivery
                                    where status = 'pending' and lease_until is not null and lease_until > now()
                                    group by subscription_id),
                                subs as (
                                    select s.id from webhook_subscription s where s.status = 'active'
                                    and (select true from webhook_delivery d where d.subscription_id = s.id
                                        and d.status = 'pending' and d.next_attempt_at <= now() limit 1)),
                                pick as (
                                    select x.id from subs
                                    left join inflight i on i.subscription_id = subs.id
                                    cross join lateral (
                                        select d.id from webhook_delivery d
                                        where d.subscription_id = subs.id and d.status = 'pending'
                                          and d.next_attempt_at <= now()
                                          and (d.lease_until is null or d.lease_until <= now())
                                          and d.seq = (select p.seq from webhook_delivery p
                                              where p.subscription_id = d.subscription_id and p.ordering_key = d.ordering_key
                                                and p.status = 'pending' order by p.seq limit 1)
                                        order by d.next_attempt_at, d.seq
                                        limit greatest($2 - coalesce(i.n, 0), 0)) x
                                    limit $1)
                                update webhook_delivery d set lease_until = now() + $3 * interval '1 millisecond'
                                from pick, webhook_subscription s, webhook_event e
                                where d.id = pick.id and s.id = d.subscription_id and e.id = d.event_id
                                returning d.id, d.subscription_id, d.event_id, e.type, d.attempts, d.schedule_index,
                                    d.manual, s.partner_id, s.url, s.secret,
                                    case when s.previous_secret_expires_at > now() then s.previous_secret end as previous_secret,
                                    e.body
                                """)
                        .execute(Tuple.of(limit, perEndpoint, leaseMillis))
                        .map(rows -> {
                            List<Claimed> out = new ArrayList<>(rows.size());
                            for (Row r : rows) {
                                out.add(new Claimed(r.getUUID("id"), r.getUUID("subscription_id"), r.getString("partner_id"),
                                        r.getUUID("event_id"),
                                        r.getString("type"), r.getInteger("attempts"), r.getInteger("schedule_index"),
                                        r.getBoolean("manual"), r.getString("url"), r.getString("secret"),
                                        r.getString("previous_secret"), r.getString("body")));
                            }
                            return out;
                        }));
    }

    /** Records one attempt and moves the delivery on: {@code status} succeeded, pending (retry) or failed. */
    public Uni<Void> recordAttempt(SqlClient tx, Claimed c, OffsetDateTime startedAt, String outcome, Integer code,
            int latencyMs, String error, String status, long retryInMillis) {
        Uni<?> insert = tx.preparedQuery("insert into webhook_attempt (delivery_id, attempt, manual, started_at, outcome,"
                        + " response_code, latency_ms, error) values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .execute(Tuple.from(Arrays.asList(c.deliveryId(), c.attempts() + 1, c.manual(), startedAt, outcome, code,
                        latencyMs, error)));
        Uni<?> update = tx.preparedQuery("update webhook_delivery set attempts = attempts + 1, lease_until = null,"
                        + " manual = false, last_response_code = $2, last_error = $3, status = $4,"
                        + " schedule_index = schedule_index + 1,"
                        + " next_attempt_at = case when $4 = 'pending' then now() + $5 * interval '1 millisecond' else next_attempt_at end,"
                        + " completed_at = case when $4 = 'pending' then null else now() end"
                        + " where id = $1 and (status = 'pending' or $4 = 'succeeded')")
                .execute(Tuple.from(Arrays.asList(c.deliveryId(), code, error, status, retryInMillis)));
        return insert.flatMap(x -> update).replaceWithVoid();
    }

    /** A successful attempt waiting to be recorded. */
    public record Success(Claimed claimed, OffsetDateTime startedAt, int code, int latencyMs) {
    }

    /**
     * The hot path, many successes in one statement (atomic on its own): logs each attempt, completes
     * each delivery and clears the failing run of their subscriptions (locked in id order, so two
     * instances recording at once cannot deadlock on them).
     */
    public Uni<Void> recordSuccesses(SqlClient c, List<Success> batch) {
        return c.preparedQuery("""
                        with v as (
                            select * from unnest($1::uuid[], $2::int[], $3::bool[], $4::timestamptz[], $5::int[], $6::int[], $7::uuid[])
                                as t(delivery_id, attempt, manual, started_at, code, latency_ms, subscription_id)),
                        a as (
                            insert into webhook_attempt (delivery_id, attempt, manual, started_at, outcome, response_code, latency_ms)
                            select delivery_id, attempt, manual, started_at, 'succeeded', code, latency_ms from v),
                        d as (
                            update webhook_delivery w set attempts = w.attempts + 1, lease_until = null, manual = false,
                                last_response_code = v.code, last_error = null, status = 'succeeded',
                                schedule_index = w.schedule_index + 1, completed_at = now()
                            from v where w.id = v.delivery_id),
                        healthy as (
                            select s.id from webhook_subscription s where s.id in (select subscription_id from v)
                                and s.failing_since is not null order by s.id for update)
                        update webhook_subscription s set failing_since = null from healthy where s.id = healthy.id
                        """)
                .execute(Tuple.tuple().addArrayOfUUID(column(batch, s -> s.claimed().deliveryId(), UUID[]::new))
                        .addArrayOfInteger(column(batch, s -> s.claimed().attempts() + 1, Integer[]::new))
                        .addArrayOfBoolean(column(batch, s -> s.claimed().manual(), Boolean[]::new))
                        .addArrayOfOffsetDateTime(column(batch, Success::startedAt, OffsetDateTime[]::new))
                        .addArrayOfInteger(column(batch, Success::code, Integer[]::new))
                        .addArrayOfInteger(column(batch, Success::latencyMs, Integer[]::new))
                        .addArrayOfUUID(column(batch, s -> s.claimed().subscriptionId(), UUID[]::new)))
                .replaceWithVoid();
    }

    /** After a failure: starts the failing run if needed; emits whether it has lasted {@code disableAfterMillis}. */
    public Uni<Boolean> markFailing(SqlClient tx, UUID subscriptionId, long disableAfterMillis) {
        return tx.preparedQuery("update webhook_subscription set failing_since = coalesce(failing_since, now())"
                        + " where id = $1 returning failing_since <= now() - $2 * interval '1 millisecond' as expired")
                .execute(Tuple.of(subscriptionId, disableAfterMillis))
                .map(rs -> rs.size() == 1 && rs.iterator().next().getBoolean("expired"));
    }

    private static final String DELIVERY_COLUMNS = "d.id, d.subscription_id, d.event_id, e.type, d.status, d.attempts,"
            + " d.next_attempt_at, d.last_response_code, d.last_error, d.created_at, d.completed_at";

    /** The delivery log of one subscription, newest first. */
    public Uni<List<Delivery>> list(SqlClient c, UUID subscriptionId, String status, int limit, Long beforeSeq) {
        return c.preparedQuery("select " + DELIVERY_COLUMNS + " from webhook_delivery d join webhook_event e on e.id = d.event_id"
                        + " where d.subscription_id = $1 and ($2::varchar is null or d.status = $2)"
                        + " and ($4::bigint is null or d.seq < $4) order by d.seq desc limit $3")
                .execute(Tuple.from(Arrays.asList(subscriptionId, status, limit, beforeSeq)))
                .map(rs -> Rows.list(rs, r -> delivery(r)));
    }

    public Uni<Delivery> find(SqlClient c, UUID subscriptionId, UUID deliveryId) {
        return c.preparedQuery("select " + DELIVERY_COLUMNS + " from webhook_delivery d join webhook_event e on e.id = d.event_id"
                        + " where d.subscription_id = $1 and d.id = $2")
                .execute(Tuple.of(subscriptionId, deliveryId))
                .map(rs -> rs.size() == 0 ? null : delivery(rs.iterator().next()));
    }

    public Uni<List<Attempt>> attempts(SqlClient c, UUID deliveryId) {
        return c.preparedQuery("select attempt, manual, started_at, outcome, response_code, latency_ms, error"
                        + " from webhook_attempt where delivery_id = $1 order by id")
                .execute(Tuple.of(deliveryId))
                .map(rs -> Rows.list(rs, r -> new Attempt(r.getInteger("attempt"), r.getBoolean("manual"),
                            r.getOffsetDateTime("started_at"), r.getString("outcome"), r.getInteger("response_code"),
                            r.getInteger("latency_ms"), r.getString("error"))));
    }

    /**
     * Queues a delivery again now with a fresh schedule. Emits false when an attempt is in flight
     * (the caller answers 409).
     */
    public Uni<Boolean> redeliver(SqlClient c, UUID subscriptionId, UUID deliveryId) {
        return c.preparedQuery("update webhook_delivery set status = 'pending', next_attempt_at = now(),"
                        + " schedule_index = 0, manual = true, completed_at = null"
                        + " where subscription_id = $1 and id = $2 and (lease_until is null or lease_until <= now())")
                .execute(Tuple.of(subscriptionId, deliveryId))
                .map(rs -> rs.rowCount() == 1);
    }

    /** The seq of a delivery, for the log's cursor. */
    public Uni<Long> seqOf(SqlClient c, UUID subscriptionId, UUID deliveryId) {
        return c.preparedQuery("select seq from webhook_delivery where subscription_id = $1 and id = $2")
                .execute(Tuple.of(subscriptionId, deliveryId))
                .map(rs -> rs.size() == 0 ? null : rs.iterator().next().getLong(0));
    }

    private static Delivery delivery(Row r) {
        return new Delivery(r.getUUID("id"), r.getUUID("subscription_id"), r.getUUID("event_id"), r.getString("type"),
                r.getString("status"), r.getInteger("attempts"),
                "pending".equals(r.getString("status")) ? r.getOffsetDateTime("next_attempt_at") : null,
                r.getInteger("last_response_code"), r.getString("last_error"), r.getOffsetDateTime("created_at"),
                r.getOffsetDateTime("completed_at"));
    }

    /**
     * Deletes, inside {@code tx}, up to {@code limit} deliveries that ended ({@code succeeded} or {@code failed}) before
     * {@code cutoff}, oldest first, with their attempts (cascade), then the events of those deliveries that no delivery
     * refers to any more (a second statement: it must see the first one's deletions). Emits how many deliveries.
     */
    public Uni<Integer> pruneHistory(SqlClient tx, OffsetDateTime cutoff, int limit) {
        return tx.preparedQuery("""
                        delete from webhook_delivery where id = any(array(
                            select id from webhook_delivery where status <> 'pending' and completed_at < $1
                            order by completed_at limit $2))
                        returning event_id""")
                .execute(Tuple.of(cutoff, limit))
                .flatMap(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().item(0);
                    }
                    UUID[] events = Rows.list(rows, r -> r.getUUID(0)).stream().distinct().toArray(UUID[]::new);
                    return tx.preparedQuery("delete from webhook_event e where e.id = any($1)"
                                    + " and not exists (select 1 from webhook_delivery d where d.event_id = e.id)")
                            .execute(Tuple.of(events))
                            .replaceWith(rows.rowCount());
                });
    }

    /** One column of {@code rows} as an array, for a batch statement over {@code unnest} of parallel arrays. */
    private static <R, C> C[] column(List<R> rows, Function<R, C> value, IntFunction<C[]> array) {
        return rows.stream().map(value).toArray(array);
    }
}
