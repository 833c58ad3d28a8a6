package dev.agentpay.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.discovery.testing.UpstreamStub;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The official MCP tools against this server, run from the test suite: the conformance suite's
 * scenarios (Node 22 through npx), the Inspector CLI's {@code tools/list --strict}, and a client on
 * the official TypeScript SDK calling every tool. Versions are pinned here and in
 * {@code src/test/resources/mcp-sdk-client/package.json}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class McpOfficialToolsTest {

    static final String CONFORMANCE = "@modelcontextprotocol/conformance@0.1.16";
    static final String INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";
    static final Path WORK = Path.of("target", "mcp-official");

    /** Exit code and combined output of one command. */
    record Run(int exit, String output) {
    }

    static String mcpUrl() {
        return "http://localhost:" + RestAssured.port + "/disco/mcp";
    }

    @Test
    void conformanceScenariosPass() throws Exception {
        for (String scenario : List.of("server-initialize", "ping", "tools-list", "dns-rebinding-protection")) {
            Run r = run(List.of("npx", "-y", "-p", "node@22", "-p", CONFORMANCE, "conformance", "server",
                    "--url", mcpUrl(), "--scenario", scenario, "-o", WORK.resolve("conformance").toAbsolutePath().toString()),
                    Map.of(), Duration.ofMinutes(4));
            assertThat(r.exit()).as(scenario + ":\n" + r.output()).isZero();
            assertThat(r.output()).as(scenario).doesNotContainIgnoringCase("FAILURE");
        }
    }

    @Test
    void inspectorCliListsToolsStrictly() throws Exception {
        Run r = run(List.of("npx", "-y", "-p", "node@22", "-p", INSPECTOR, "mcp-inspector", "--cli", mcpUrl(),
                "--transport", "http", "--method", "tools/list", "--strict"), Map.of(), Duration.ofMinutes(4));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).as("schema portability report").doesNotContain("Warning: tool").doesNotContain(" errors, ");
        for (String tool : List.of("service_create_invoice", "service_settle_invoice", "service_pay_invoice", "service_query_mandate",
                "service_verify_mandate", "service_dispute_open", "service_dispute_add_evidence", "service_dispute_status",
                "service_charge_mandate", "service_get_pricing",
                "service_get_trust_signals")) {
            assertThat(r.output()).contains(tool);
        }
    }

    @Test
    void sdkClientCallsEveryTool() throws Exception {
        Path dir = WORK.resolve("sdk-client");
        Files.createDirectories(dir);
        for (String f : List.of("package.json", "client.mjs")) {
            try (InputStream in = getClass().getClassLoader().getResourceAsStream("mcp-sdk-client/" + f)) {
                Files.write(dir.resolve(f), in.readAllBytes());
            }
        }
        if (!Files.exists(dir.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            Run install = run(List.of("npm", "install", "--no-audit", "--no-fund", "--prefix", dir.toAbsolutePath().toString()),
                    Map.of(), Duration.ofMinutes(4));
            assertThat(install.exit()).as(install.output()).isZero();
        }
        UpstreamStub stub = UpstreamStubResource.stub();
        Run r = run(List.of("node", dir.resolve("client.mjs").toAbsolutePath().toString(), mcpUrl()), Map.of(
                "MANDATE_ID", stub.mandate("in_progress"),
                "DISPUTE_MANDATE_ID", stub.mandate("signed_by_both"),
                "API_KEY", UpstreamStub.API_KEY), Duration.ofMinutes(2));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).contains("\"failures\":[]").contains("\"tools\":11");
    }

    static Run run(List<String> command, Map<String, String> env, Duration timeout) throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        Path log = Files.createTempFile(WORK, "run-", ".log");
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(WORK.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command + "\n" + Files.readString(log));
        }
        return new Run(p.exitValue(), Files.readString(log));
    }
}
