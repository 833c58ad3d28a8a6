package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.localstack.RepoPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The merged OpenAPI document against the real stack (issue 19): {@code deploy/local/node/openapi-client-check.mjs}
 * fetches {@code {BASE_URL}/openapi.json} through the gateway, generates a TypeScript client from it
 * (openapi-typescript), runs a mandate flow and an invoice flow with openapi-fetch, and validates every
 * real answer, refusals included, with Ajv (JSON Schema 2020-12) against the schema the document gives
 * for that operation and status.
 */
class OpenApiIT {

    @Test
    void realAnswersMatchTheDocumentAndAGeneratedClientRunsTheFlows() throws Exception {
        Map<String, String> env = SharedStack.env();
        Path node = RepoPaths.root().resolve("deploy/local/node");
        Path out = Files.createDirectories(RepoPaths.root().resolve("deploy/e2e/target/openapi-client"));
        ProcessBuilder pb = new ProcessBuilder("node", "openapi-client-check.mjs").directory(node.toFile())
                .redirectErrorStream(true);
        pb.environment().put("BASE_URL", env.get("BASE_URL"));
        pb.environment().put("API_KEY", env.get("API_KEY"));
        pb.environment().put("SIGNING_SECRET", env.get("SIGNING_SECRET"));
        pb.environment().put("OUT_DIR", out.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] output = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the client check finished").isTrue();
        String text = new String(output, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        assertThat(text).contains("answers match the document");
        assertThat(out.resolve("agentpay.d.ts")).exists();
    }
}
