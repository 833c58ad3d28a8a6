package dev.agentpay.commons.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.testing.PlatformDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two instances' {@link Leases} against one real PostgreSQL: one holder at a time, the token grows when the
 * holder changes, a stale token's effect is refused in its own transaction, and a holder frozen inside a
 * fenced transaction cannot keep the lease from moving.
 */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class LeasesTest {

    private static final Duration T = Duration.ofSeconds(20);
    private static PlatformDatabase db;
    private static Pool pool;

    @BeforeAll
    static void start() {
        db = PlatformDatabase.start();
        pool = db.pool();
        pool.query("create table if not exists effect (id text primary key)").execute().await().atMost(T);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @BeforeEach
    void clean() {
        pool.query("delete from platform_lease").execute().await().atMost(T);
        pool.query("delete from effect").execute().await().atMost(T);
    }

    private static Leases instance(String holder, Duration ttl) {
        return new Leases(pool, db.vertx(), ttl, Duration.ofMillis(100), Duration.ofSeconds(1), holder);
    }

    private static Uni<Void> effect(SqlConnection c, String id) {
        return c.preparedQuery("insert into effect (id) values ($1)").execute(Tuple.of(id)).replaceWithVoid();
    }

    private static List<String> effects() {
        return pool.query("select id from effect order by id").execute().await().atMost(T)
                .stream().map(r -> r.getString(0)).toList();
    }

    @Test
    void oneHolderAtATimeAndTheTokenGrowsWithEachNewHolder() {
        Leases a = instance("a", Duration.ofSeconds(30));
        Leases b = instance("b", Duration.ofSeconds(30));
        assertThat(a.acquire("work").await().atMost(T)).isEqualTo(1L);
        assertThat(b.acquire("work").await().atMost(T)).isEqualTo(-1L);
        assertThat(a.acquire("work").await().atMost(T)).as("a renewal keeps the token").isEqualTo(1L);
        a.release("work", 1).await().atMost(T);
        assertThat(b.acquire("work").await().atMost(T)).isEqualTo(2L);
        assertThat(a.acquire("work").await().atMost(T)).isEqualTo(-1L);
        assertThat(a.acquire("other").await().atMost(T)).as("leases are independent").isEqualTo(1L);
    }

    @Test
    void aStaleTokenIsRefusedInTheTransactionOfItsEffect() {
        Leases a = instance("a", Duration.ofMillis(300));
        Leases b = instance("b", Duration.ofSeconds(30));
        long ta = a.acquire("work").await().atMost(T);
        a.fenced("work", ta, c -> effect(c, "a-1")).await().atMost(T);
        // a stops renewing (frozen); once its lease expired, b takes it
        await("b takes the expired lease").atMost(T).until(() -> b.acquire("work").await().atMost(T) == ta + 1);
        // a wakes and carries on with its old token: refused, nothing written
        assertThatThrownBy(() -> a.fenced("work", ta, c -> effect(c, "a-2")).await().atMost(T))
                .isInstanceOf(LeaseLostException.class);
        b.fenced("work", ta + 1, c -> effect(c, "b-1")).await().atMost(T);
        // a's renewal does not take it back while b holds it
        assertThat(a.acquire("work").await().atMost(T)).isEqualTo(-1L);
        // b's token is refused for another holder's instance object too (holder checked, not only the token)
        assertThatThrownBy(() -> a.fenced("work", ta + 1, c -> effect(c, "a-3")).await().atMost(T))
                .isInstanceOf(LeaseLostException.class);
        assertThat(effects()).containsExactly("a-1", "b-1");
    }

    @Test
    void aHolderFrozenInsideAFencedTransactionCannotHoldTheLeaseUp() {
        Leases a = instance("a", Duration.ofMillis(300));
        Leases b = instance("b", Duration.ofSeconds(30));
        long ta = a.acquire("work").await().atMost(T);
        // a enters a fenced transaction (the lease row locked) and freezes before its effect
        SqlConnection frozen = pool.getConnection().await().atMost(T);
        frozen.query("begin").execute().await().atMost(T);
        a.fence(frozen, "work", ta).await().atMost(T);
        Instant froze = Instant.now();
        // b takes the lease once PostgreSQL ended a's idle session (1 s here): its acquire waited for the lock
        await("b takes the lease").atMost(T).until(() -> b.acquire("work").await().atMost(T) == ta + 1);
        assertThat(Duration.between(froze, Instant.now())).isLessThan(Duration.ofSeconds(10));
        // a wakes: its transaction is gone with its session, its effect cannot commit
        assertThatThrownBy(() -> effect(frozen, "a-late").chain(() -> frozen.query("commit").execute()).await().atMost(T))
                .isInstanceOf(Exception.class);
        frozen.close().await().atMost(T);
        assertThat(effects()).isEmpty();
    }

    @Test
    void aHeldLeaseMovesToTheOtherInstanceWhenItsHolderStopsRenewing() {
        Leases a = instance("a", Duration.ofMillis(500));
        Leases b = instance("b", Duration.ofMillis(500));
        List<String> log = new CopyOnWriteArrayList<>();
        HeldLease ha = a.hold("work", owner("a", log));
        HeldLease hb = b.hold("work", owner("b", log));
        ha.start().await().atMost(T);
        hb.start().await().atMost(T);
        assertThat(ha.token()).isEqualTo(1L);
        assertThat(hb.held()).isFalse();
        ha.stop(); // as a freeze or a kill: no release
        await("b holds the lease").atMost(T).until(() -> hb.token() == 2L);
        assertThat(log).containsExactly("a acquired 1", "a lost 1", "b acquired 2");
        hb.release().await().atMost(T);
        assertThat(pool.query("select expires_at <= now() from platform_lease where name = 'work'").execute().await().atMost(T)
                .iterator().next().getBoolean(0)).as("released at once").isTrue();
    }

    private static HeldLease.Owner owner(String name, List<String> log) {
        return new HeldLease.Owner() {
            @Override
            public Uni<Void> acquired(long token) {
                log.add(name + " acquired " + token);
                return Uni.createFrom().voidItem();
            }

            @Override
            public void lost(long token) {
                log.add(name + " lost " + token);
            }
        };
    }
}
