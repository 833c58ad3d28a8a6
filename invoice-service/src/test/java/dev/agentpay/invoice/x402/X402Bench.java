package dev.agentpay.invoice.x402;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.ManagedProcess;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The x402 bench (not part of the test run: its name does not end in {@code Test}). Runs
 * {@code bench/x402/driver.mjs} against this service's {@code POST /api/x402/invoice} and the official
 * {@code x402-express} reference server ({@code bench/x402/reference-server.mjs}), both paid through the
 * same local facilitator on the same anvil chain, in the same run. Output in
 * {@code invoice-service/target/x402-bench.md}.
 *
 * <pre>./mvnw -B -o -pl invoice-service -am verify -Dtest=X402Bench -Dsurefire.failIfNoSpecifiedTests=false
 *   [-Dbench.x402.duration=10 -Dbench.x402.concurrency=16 -Dbench.x402.paid=30]</pre>
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(FacilitatorTestResource.class)
class X402Bench {

    @TestHTTPResource("/api/x402/invoice")
    URL invoiceUrl;

    @Test
    void challengeRateAndPaidLatencyBesideTheReference() throws Exception {
        Path benchDir = RepoPaths.root().resolve("bench/x402");
        int port = Ports.free();
        ManagedProcess reference = ManagedProcess.start("x402-express-reference", List.of("node", "reference-server.mjs"),
                Map.of("PORT", Integer.toString(port), "PAY_TO", FacilitatorTestResource.SELLER,
                        "FACILITATOR_URL", FacilitatorTestResource.facilitatorUrl()),
                benchDir, RepoPaths.testScratch("reference").resolve("reference.log"));
        try {
            Ports.awaitListening(port, java.time.Duration.ofSeconds(30), reference);
            ObjectNode cfg = X402Client.JSON.createObjectNode();
            ObjectNode targets = cfg.putObject("targets");
            targets.put("invoice-service (Quarkus)", invoiceUrl.toString());
            targets.put("x402-express 1.2.0 reference", "http://127.0.0.1:" + port + "/api/x402/invoice");
            cfg.put("key", FacilitatorTestResource.PAYER_KEY);
            cfg.put("rpc", FacilitatorTestResource.rpcUrl());
            cfg.put("duration", Integer.getInteger("bench.x402.duration", 10));
            cfg.put("concurrency", Integer.getInteger("bench.x402.concurrency", 16));
            cfg.put("paid", Integer.getInteger("bench.x402.paid", 30));
            Process p = new ProcessBuilder("node", "driver.mjs", cfg.toString()).directory(benchDir.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
            System.out.println(out);
            Files.writeString(Path.of("target/x402-bench.md"), out);
            assertThat(p.exitValue()).isZero();
            assertThat(out).contains("| invoice-service (Quarkus) |");
        } finally {
            reference.stop();
        }
    }
}
