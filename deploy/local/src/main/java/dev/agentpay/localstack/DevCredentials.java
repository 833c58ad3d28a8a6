package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.solana.SolanaKeys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.p2p.solanaj.utils.Base58;

/** The local stack's development credentials: its secrets file and the two development partners. */
final class DevCredentials {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DevCredentials() {
    }

    /** Development secrets, generated on the first start and kept in {@code .local/secrets.env}. */
    static Map<String, String> load(Path local) {
        Path file = local.resolve("secrets.env");
        Map<String, String> s = StackEnv.read(file);
        boolean changed = false;
        changed |= s.putIfAbsent("API_KEY", ApiKeys.generate()) == null;
        changed |= s.putIfAbsent("SIGNING_SECRET", ApiKeys.randomHex(32)) == null;
        changed |= s.putIfAbsent("API_KEY_2", ApiKeys.generate()) == null;
        changed |= s.putIfAbsent("SIGNING_SECRET_2", ApiKeys.randomHex(32)) == null;
        changed |= s.putIfAbsent("ADMIN_API_KEY", "adm_" + ApiKeys.randomHex(32)) == null;
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            changed |= s.putIfAbsent(LocalStack.envPrefix(c) + "_PAYMENT_ADDRESS", "0x" + ApiKeys.randomHex(20)) == null;
        }
        changed |= s.putIfAbsent("SOLANA_PAYMENT_ADDRESS", Base58.encode(randomBytes(32))) == null;
        if (!s.containsKey("SOLANA_DEV_PAYER_SECRET_KEY")) {
            SolanaKeys.Keypair payer = SolanaKeys.generate();
            s.put("SOLANA_DEV_PAYER_SECRET_KEY", payer.secret());
            s.put("SOLANA_DEV_PAYER_ADDRESS", payer.address());
            changed = true;
        }
        if (!s.containsKey("SOLANA_FACILITATOR_SECRET_KEY")) {
            // the local x402 facilitator's Solana fee payer (extra.feePayer of the Solana rail)
            SolanaKeys.Keypair feePayer = SolanaKeys.generate();
            s.put("SOLANA_FACILITATOR_SECRET_KEY", feePayer.secret());
            s.put("SOLANA_FACILITATOR_ADDRESS", feePayer.address());
            changed = true;
        }
        if (changed) {
            StackEnv.write(file, s, "development secrets of the local stack; never use them anywhere else");
        }
        return s;
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new java.security.SecureRandom().nextBytes(b);
        return b;
    }

    /** Registers the two development partners at mandate-service and waits until the services accept the key. */
    static void bootstrapPartners(HttpClient http, String mandate, String baseUrl, Map<String, String> secrets)
            throws Exception {
        for (String[] p : new String[][] {{"dev-partner-1", "Development partner 1", "API_KEY", "SIGNING_SECRET"},
                {"dev-partner-2", "Development partner 2", "API_KEY_2", "SIGNING_SECRET_2"}}) {
            String body = JSON.writeValueAsString(Map.of("name", p[1], "api_key", secrets.get(p[2]), "signing_secret", secrets.get(p[3])));
            // a service's first requests after its start can take long on a loaded machine (class loading, JIT):
            // 10 s timed out on a shared 2-core machine; the PUT is idempotent
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(mandate + "/admin/partners/" + p[0]))
                    .timeout(Duration.ofSeconds(45))
                    .header("content-type", "application/json")
                    .header("x-admin-key", secrets.get("ADMIN_API_KEY"))
                    .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() / 100 != 2) {
                throw new IllegalStateException("partner bootstrap of " + p[0] + " failed: " + res.statusCode() + " " + res.body());
            }
        }
        // The registry reaches every service over Kafka; wait until the gateway's services accept the key.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String probe = baseUrl + "/v1/invoices?limit=1";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> res;
            try {
                res = http.send(HttpRequest.newBuilder(URI.create(probe)).timeout(Duration.ofSeconds(5))
                        .header("x-api-key", secrets.get("API_KEY")).GET().build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.net.http.HttpTimeoutException e) {
                continue; // a slow first answer on a loaded machine: ask again until the deadline
            }
            if (res.statusCode() != 401) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the development API key was not accepted within 60 s");
    }
}
