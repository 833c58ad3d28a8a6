package dev.agentpay.mandate.signing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed vectors are exactly what the Node script produces: data and reference cannot drift apart. */
class CanonicalVectorsDriftTest {

    private static final Path SCRIPT = Path.of("src/test/js/generate-canonical-vectors.mjs");
    private static final Path COMMITTED = Path.of("src/test/resources/canonical");

    @Test
    void nodeScriptRegeneratesTheCommittedVectors(@TempDir Path out) throws Exception {
        assertThat(SCRIPT).as("run from the mandate-service directory").exists();
        Path log = out.resolve("node.log");
        Process node;
        try {
            node = new ProcessBuilder("node", SCRIPT.toAbsolutePath().toString(), out.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError("`node` (Node 20+) must be on PATH to check the vectors", e);
        }
        if (!node.waitFor(120, TimeUnit.SECONDS)) {
            node.destroyForcibly();
            throw new AssertionError("the vector generator did not finish within 120 s");
        }
        assertThat(node.exitValue()).as(Files.readString(log)).isZero();
        for (String file : new String[] {"vectors.json", "numbers.json"}) {
            String regenerated = Files.readString(out.resolve(file), StandardCharsets.UTF_8);
            String committed = Files.readString(COMMITTED.resolve(file), StandardCharsets.UTF_8);
            assertThat(regenerated).as("%s differs from the script's output; re-run the script and commit", file)
                    .isEqualTo(committed);
        }
    }
}
