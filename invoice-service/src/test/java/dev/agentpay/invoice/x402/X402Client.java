package dev.agentpay.invoice.x402;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Runs {@code src/test/js/x402-client.mjs} (the official x402 client packages) and returns its result. */
final class X402Client {

    static final ObjectMapper JSON = new ObjectMapper();

    private X402Client() {
    }

    static ObjectNode command(String op, String url, String body) {
        ObjectNode c = base(op, url, body);
        c.put("key", FacilitatorTestResource.PAYER_KEY);
        c.put("rpc", FacilitatorTestResource.rpcUrl());
        return c;
    }

    private static ObjectNode base(String op, String url, String body) {
        ObjectNode c = JSON.createObjectNode();
        c.put("op", op);
        c.put("nodeTools", RepoPaths.nodeDir().toString());
        c.put("url", url);
        c.put("body", body);
        return c;
    }

    /** A command for {@code x402-svm-client.mjs}: the official clients paying on the Solana rail. */
    static ObjectNode solana(String op, String url, String body) {
        ObjectNode c = base(op, url, body);
        c.put("secret", dev.agentpay.localstack.testing.SharedServers.solanaPayer().secret());
        c.put("rpc", dev.agentpay.localstack.testing.SharedServers.solana().rpcUrl());
        return c;
    }

    static JsonNode run(ObjectNode command) {
        return run("x402-client.mjs", command);
    }

    static JsonNode runSolana(ObjectNode command) {
        return run("x402-svm-client.mjs", command);
    }

    private static JsonNode run(String scriptName, ObjectNode command) {
        Path script = Path.of(System.getProperty("user.dir")).resolve("src/test/js/" + scriptName);
        try {
            Process p = new ProcessBuilder("node", script.toString(), command.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("x402 client timed out");
            }
            String text = new String(out, StandardCharsets.UTF_8).trim();
            JsonNode r = JSON.readTree(text.substring(text.lastIndexOf('\n') + 1));
            if (!r.path("ok").asBoolean()) {
                throw new AssertionError("x402 client failed: " + r.path("error").asText());
            }
            return r.get("result");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
