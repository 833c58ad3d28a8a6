package dev.agentpay.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.RepoPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The root README's table "Where the spec's "not shown" decisions are documented" stays true: every
 * document it names exists, every {@code /disco/reference/...} it names is one this service serves, and
 * every section it quotes ({@code README.md ("Anchors")}) is a heading of that README.
 */
class DecisionTableTest {

    private static final Pattern FILE = Pattern.compile("`(\\w[\\w./-]*\\.md)`(?: \\(\"([^\"]+)\")?");
    private static final Pattern REFERENCE = Pattern.compile("`/disco/reference/([\\w.-]+)`");

    @Test
    void everyDocumentAndSectionTheTableNamesExists() throws Exception {
        Path root = RepoPaths.root();
        List<String> lines = Files.readAllLines(root.resolve("README.md"));
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("## Where the spec's")).findFirst().orElseThrow());
        List<String> rows = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            if (lines.get(i).startsWith("| ") && !lines.get(i).startsWith("| topic")) {
                rows.add(lines.get(i));
            }
        }
        assertThat(rows).hasSizeGreaterThan(8);
        JsonNode catalog = new ObjectMapper().readTree(root.resolve("discovery-service/src/main/resources/discovery/catalog.json").toFile());
        Set<String> references = new HashSet<>();
        catalog.get("references").forEach(r -> references.add(r.get("name").asText()));
        int files = 0;
        int sections = 0;
        for (String row : rows) {
            String documents = row.substring(row.lastIndexOf(" | ") + 3);
            Matcher f = FILE.matcher(documents);
            while (f.find()) {
                Path doc = root.resolve(f.group(1));
                assertThat(doc).as("row %s", row).exists();
                files++;
                if (f.group(2) != null) {
                    String heading = f.group(2);
                    assertThat(Files.readAllLines(doc)).as("%s has a section \"%s\"", f.group(1), heading)
                            .anyMatch(l -> l.startsWith("#") && l.contains(heading));
                    sections++;
                }
            }
            Matcher r = REFERENCE.matcher(row);
            while (r.find()) {
                assertThat(references).as("row %s", row).contains(r.group(1));
            }
        }
        assertThat(files).isGreaterThan(10);
        assertThat(sections).isGreaterThanOrEqualTo(3);
    }
}
