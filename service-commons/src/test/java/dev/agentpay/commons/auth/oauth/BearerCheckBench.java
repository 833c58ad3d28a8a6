package dev.agentpay.commons.auth.oauth;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import io.smallrye.mutiny.Uni;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.junit.jupiter.api.Test;

/**
 * Not a test: the cost of the two credential checks of {@code AuthFilters}, measured in one run, interleaved
 * call by call on one thread: the API-key check ({@code PartnerRegistry.authenticate}: SHA-256 and a map
 * lookup, plus the key's scopes) and the bearer check ({@link BearerVerifier#verify}: header, ES256 signature,
 * claims, scope string; then the registry's partner and client). Runs only with {@code -Dbench.bearer=true}
 * ({@code bench/oauth/bearer-check.sh}); prints percentiles in microseconds and the load average.
 */
class BearerCheckBench {

    @Test
    void bearerCheckBesideApiKeyCheck() throws Exception {
        assumeTrue(Boolean.getBoolean("bench.bearer"), "run with -Dbench.bearer=true (bench/oauth/bearer-check.sh)");
        int warmup = Integer.getInteger("bench.warmup", 20_000);
        int n = Integer.getInteger("bench.n", 50_000);
        EllipticCurveJsonWebKey key = BearerVerifierTest.key("k1");
        BearerVerifier verifier = new BearerVerifier();
        verifier.config = BearerVerifierTest.config(Duration.ofSeconds(10));
        String jwks = BearerVerifierTest.jwks(key);
        verifier.source = () -> Uni.createFrom().item(jwks);
        PartnerRegistry registry = new PartnerRegistry();
        String apiKey = ApiKeys.generate();
        registry.apply(new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, "ptn_1", "ptn_1", Instant.now(), 1), "bench",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(apiKey)), null, List.of(new PartnerEvent.OAuthClient("cli_1",
                List.of("mandates:read", "invoices:read")))));
        String token = BearerVerifierTest.token(key, "mandates:read invoices:read");

        long[] keyNs = new long[n];
        long[] bearerNs = new long[n];
        long sink = 0;
        for (int i = -warmup; i < n; i++) {
            long t0 = System.nanoTime();
            var p = registry.authenticate(apiKey).orElseThrow();
            sink += registry.keyScopes(p.id()).size();
            long t1 = System.nanoTime();
            AccessToken t = verifier.verify(token).await().indefinitely();
            sink += registry.active(t.partnerId()).orElseThrow().id().length()
                    + registry.clientScopes(t.partnerId(), t.clientId()).orElseThrow().size();
            long t2 = System.nanoTime();
            if (i >= 0) {
                keyNs[i] = t1 - t0;
                bearerNs[i] = t2 - t1;
            }
        }
        String load = Files.exists(Path.of("/proc/loadavg")) ? Files.readString(Path.of("/proc/loadavg")).trim() : "n/a";
        System.out.printf("%nbearer-check bench: %d interleaved pairs after %d warm-up (sink %d); load average %s; %d cores; "
                + "shared machine, not a quiet run%n", n, warmup, sink, load, Runtime.getRuntime().availableProcessors());
        System.out.println("check        p50 us   p90 us   p99 us   mean us");
        print("api key", keyNs);
        print("bearer", bearerNs);
        long[] added = new long[n];
        for (int i = 0; i < n; i++) {
            added[i] = bearerNs[i] - keyNs[i];
        }
        print("added", added);
    }

    private static void print(String name, long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        double mean = Arrays.stream(s).average().orElse(0) / 1000.0;
        System.out.printf("%-10s %8.1f %8.1f %8.1f %8.1f%n", name, s[s.length / 2] / 1000.0, s[(int) (s.length * 0.9)] / 1000.0,
                s[(int) (s.length * 0.99)] / 1000.0, mean);
    }
}
