package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `helm lint --strict` through the Helm engine, with the default and the production example values. */
class ChartLintTest {

    @Test
    void defaultValuesLintCleanly() {
        LintResult result = Chart.lint(Chart.dir());
        assertThat(result.isFailed()).as("lint: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    @Test
    void productionValuesLintCleanly(@TempDir Path tmp) throws Exception {
        // Lint reads the chart's own values.yaml: lint a copy whose values.yaml is defaults + production merged.
        Path copy = Chart.copy(tmp.resolve("agentpay"));
        JsonNode merged = Chart.mergeValues(Chart.readYaml(copy.resolve("values.yaml")),
                Chart.readYaml(copy.resolve("values-production.yaml")));
        Chart.writeYaml(copy.resolve("values.yaml"), merged);
        assertThat(Files.readString(copy.resolve("values.yaml"))).contains("mode: \"cnpg\"");
        LintResult result = Chart.lint(copy);
        assertThat(result.isFailed()).as("lint: %s", result.getMessages()).isFalse();
        assertThat(result.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    @Test
    void lintFailsOnABrokenTemplate(@TempDir Path tmp) throws Exception {
        // The lint is a real check: a template error makes it fail.
        Path copy = Chart.copy(tmp.resolve("agentpay"));
        Files.writeString(copy.resolve("templates/broken.yaml"), "{{ .Values.nope.missing | required \"boom\" }}\n");
        LintResult result = Chart.lint(copy);
        assertThat(result.isFailed()).isTrue();
        assertThatThrownBy(() -> Chart.template(copy, java.util.List.of(), java.util.Map.of()))
                .hasMessageContaining("nil pointer");
    }
}
