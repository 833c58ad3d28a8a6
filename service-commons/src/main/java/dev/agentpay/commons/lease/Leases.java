package dev.agentpay.commons.lease;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * Leases with fencing tokens in the service's own database (table {@code platform_lease}): the one way
 * a service runs work that only one of its instances may do at a time (anchor-service's signer, each
 * chain of settlement-watcher).
 *
 * <ul>
 * <li>{@link #acquire} takes an absent or expired lease, or renews one this instance holds, in one
 * statement on the database's clock; it emits the lease's <b>fencing token</b>, which grows by one every
 * time the holder changes (a renewal keeps it), or -1 when another instance holds it.</li>
 * <li>{@link #fence} is the first statement of every transaction that carries the work's effect (signing
 * and storing a transaction, recording a receipt, committing a scan step, recording a sweep): it locks the
 * lease row ({@code for share}) and fails with {@link LeaseLostException} unless the token is still the
 * lease's. A new holder's {@link #acquire} waits for that lock, so every effect committed under token
 * {@code t} commits before the lease moves to {@code t+1}, and every effect tried afterwards under
 * {@code t} is refused: a frozen instance that wakes after its work moved changes nothing. The time-based
 * expiry only decides how soon the work moves, never whether an effect is allowed.</li>
 * <li>The fenced transaction sets PostgreSQL's {@code idle_in_transaction_session_timeout}, so a holder
 * frozen inside it (its lock held) has its session ended by the server and cannot hold the lease up.</li>
 * </ul>
 *
 * <p>{@link HeldLease} keeps one lease: renews it, tries to take it when it is free, and tells its owner
 * when it got or lost it.
 */
public class Leases {

    private final Pool pool;
    private final Vertx vertx;
    private final Duration ttl;
    private final Duration renewEvery;
    private final Duration idleTransactionTimeout;
    private final String holder;

    public Leases(Pool pool, Vertx vertx, Duration ttl, Duration renewEvery, Duration idleTransactionTimeout, String holder) {
        this.pool = Objects.requireNonNull(pool);
        this.vertx = vertx;
        this.ttl = Objects.requireNonNull(ttl);
        this.renewEvery = Objects.requireNonNull(renewEvery);
        this.idleTransactionTimeout = Objects.requireNonNull(idleTransactionTimeout);
        this.holder = Objects.requireNonNull(holder);
    }

    /** A holder id unique to this process: the host name (a pod's name) and a random part. */
    public static String newHolderId() {
        String host = System.getenv().getOrDefault("HOSTNAME", "");
        String id = UUID.randomUUID().toString().substring(0, 8);
        return host.isBlank() ? id : (host.length() > 100 ? host.substring(0, 100) : host) + "-" + id;
    }

    /** This instance's holder id. */
    public String holder() {
        return holder;
    }

    public Duration ttl() {
        return ttl;
    }

    public Duration renewEvery() {
        return renewEvery;
    }

    Vertx vertx() {
        return vertx;
    }

    /**
     * Takes the lease if nobody holds it or its holder let it expire, or renews it if this instance
     * holds it; emits the fencing token, or -1 if another instance holds it. Waits (at most about the
     * idle-transaction timeout) for a fenced transaction of the previous holder in flight.
     */
    public Uni<Long> acquire(String name) {
        return pool.preparedQuery("""
                        insert into platform_lease (name, holder, token, acquired_at, expires_at)
                        values ($1, $2, 1, now(), now() + $3 * interval '1 millisecond')
                        on conflict (name) do update set
                            token = case when platform_lease.holder = excluded.holder then platform_lease.token
                                         else platform_lease.token + 1 end,
                            acquired_at = case when platform_lease.holder = excluded.holder then platform_lease.acquired_at
                                               else now() end,
                            holder = excluded.holder,
                            expires_at = excluded.expires_at
                        where platform_lease.holder = excluded.holder or platform_lease.expires_at <= now()
                        returning token""")
                .execute(Tuple.of(name, holder, ttl.toMillis()))
                .map(rows -> rows.size() == 0 ? -1L : rows.iterator().next().getLong(0));
    }

    /** Lets the lease go at once (a clean shutdown): another instance takes it at its next try. */
    public Uni<Void> release(String name, long token) {
        return pool.preparedQuery("update platform_lease set expires_at = now() where name = $1 and holder = $2 and token = $3")
                .execute(Tuple.of(name, holder, token))
                .replaceWithVoid();
    }

    /**
     * The fencing check, first statement of the effect's transaction {@code tx}: locks the lease row until
     * the transaction ends and fails with {@link LeaseLostException} unless {@code token} is still the
     * lease's and this instance its holder.
     */
    public Uni<Void> fence(SqlClient tx, String name, long token) {
        if (token < 0) {
            return Uni.createFrom().failure(new LeaseLostException(name, token));
        }
        return tx.query("set local idle_in_transaction_session_timeout = " + idleTransactionTimeout.toMillis())
                .execute()
                .chain(() -> tx.preparedQuery("select token, holder from platform_lease where name = $1 for share")
                        .execute(Tuple.of(name)))
                .flatMap(rows -> current(rows, token) ? Uni.createFrom().voidItem()
                        : Uni.createFrom().failure(new LeaseLostException(name, token)));
    }

    private boolean current(RowSet<Row> rows, long token) {
        if (rows.size() == 0) {
            return false;
        }
        Row r = rows.iterator().next();
        return r.getLong("token") == token && holder.equals(r.getString("holder"));
    }

    /** Runs {@code work} in one transaction that starts with {@link #fence}: the effect commits only under the token. */
    public <T> Uni<T> fenced(String name, long token, Function<SqlConnection, Uni<T>> work) {
        return pool.withTransaction(c -> fence(c, name, token).chain(() -> work.apply(c)));
    }

    /** Keeps {@code name}: renews it while held, takes it when free, and tells {@code owner}. Call {@link HeldLease#start}. */
    public HeldLease hold(String name, HeldLease.Owner owner) {
        return new HeldLease(this, name, owner);
    }
}
