package dev.agentpay.webhook.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.RepoPaths;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code verify-webhooks.mjs} with Node from {@code deploy/local/node}, where npm installed the
 * {@code standardwebhooks} package, over a batch of recorded deliveries.
 */
public final class NodeVerifier {

    /** The verdict on one delivery. */
    public record Verdict(boolean standard, boolean service, String error) {
    }

    /**
     * One delivery to verify with the secret the receiver holds: {@code secret} as registered (for
     * {@code X-Service-Signature}) and {@code standardSecret}, its {@code whsec_} form, which the
     * {@code standardwebhooks} library gets with its defaults.
     */
    public record Item(String secret, String standardSecret, TestReceiver.Received received) {

        /** With the whsec_ form the README documents: the secret as is if whsec_, else whsec_ + base64(UTF-8 bytes). */
        public Item(String secret, TestReceiver.Received received) {
            this(secret, secret.startsWith("whsec_") ? secret
                    : "whsec_" + Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8)), received);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private NodeVerifier() {
    }

    public static List<Verdict> verify(List<Item> items) throws Exception {
        ArrayNode input = JSON.createArrayNode();
        for (Item i : items) {
            ObjectNode n = input.addObject();
            n.put("secret", i.secret());
            n.put("standardSecret", i.standardSecret());
            ObjectNode h = n.putObject("headers");
            i.received().headers().forEach(h::put);
            n.put("bodyBase64", Base64.getEncoder().encodeToString(i.received().body()));
        }
        Path file = Files.createTempFile("deliveries", ".json");
        Files.writeString(file, JSON.writeValueAsString(input));
        String script;
        try (InputStream in = NodeVerifier.class.getResourceAsStream("/verify-webhooks.mjs")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        ProcessBuilder pb = new ProcessBuilder("node", "--input-type=module", "-e", script)
                .directory(RepoPaths.nodeDir().toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("VERIFY_INPUT", file.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("node verifier failed: " + new String(out, StandardCharsets.UTF_8));
        }
        Files.deleteIfExists(file);
        JsonNode results = JSON.readTree(out);
        List<Verdict> verdicts = new ArrayList<>();
        results.forEach(r -> verdicts.add(new Verdict(r.get("standard").asBoolean(), r.get("service").asBoolean(),
                r.get("error").isNull() ? null : r.get("error").asText())));
        return verdicts;
    }
}
