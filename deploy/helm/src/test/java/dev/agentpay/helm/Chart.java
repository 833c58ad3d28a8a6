package dev.agentpay.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The agentpay chart driven through the Helm engine (helm-java's embedded Helm library). */
final class Chart {

    static final String RELEASE = "agentpay";
    static final String NAMESPACE = "payments";
    static final ObjectMapper YAML = new YAMLMapper();

    private Chart() {
    }

    /** The chart directory in the source tree. */
    static Path dir() {
        return Path.of(System.getProperty("agentpay.chart.dir", "agentpay")).toAbsolutePath();
    }

    /** The repository root. */
    static Path repoRoot() {
        return Path.of(System.getProperty("agentpay.repo.root", "../..")).toAbsolutePath().normalize();
    }

    static Path productionValues() {
        return dir().resolve("values-production.yaml");
    }

    /** Renders the chart in {@code chartDir} with the values files and --set pairs given, as `helm template` would. */
    static String template(Path chartDir, List<Path> valuesFiles, Map<String, Object> sets) {
        TemplateCommand cmd = new Helm(chartDir).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion("1.30.0");
        for (Path f : valuesFiles) {
            cmd = cmd.withValuesFile(f);
        }
        for (Map.Entry<String, Object> e : sets.entrySet()) {
            cmd = cmd.set(e.getKey(), e.getValue());
        }
        return cmd.call();
    }

    static Manifests render(List<Path> valuesFiles, Map<String, Object> sets) {
        return Manifests.parse(template(dir(), valuesFiles, sets));
    }

    static Manifests renderDefault() {
        return render(List.of(), Map.of());
    }

    static Manifests renderProduction() {
        return render(List.of(productionValues()), Map.of());
    }

    /** `helm lint --strict` of a chart directory (lint reads that directory's values.yaml). */
    static LintResult lint(Path chartDir) {
        return new Helm(chartDir).lint().strict().call();
    }

    /** A copy of the chart in a temporary directory, to lint other values or break it on purpose. */
    static Path copy(Path target) {
        try (Stream<Path> files = Files.walk(dir())) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path to = target.resolve(dir().relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode readYaml(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void writeYaml(Path file, JsonNode node) {
        try {
            YAML.writeValue(file.toFile(), node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's value merge: maps merge key by key, anything else is replaced by the override. */
    static JsonNode mergeValues(JsonNode base, JsonNode override) {
        if (!(base instanceof ObjectNode b) || !override.isObject()) {
            return override.deepCopy();
        }
        ObjectNode out = b.deepCopy();
        Iterator<Map.Entry<String, JsonNode>> it = override.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode existing = out.get(e.getKey());
            out.set(e.getKey(), existing == null ? e.getValue().deepCopy() : mergeValues(existing, e.getValue()));
        }
        return out;
    }

    /** The parsed documents of one rendering. */
    record Manifests(List<JsonNode> docs) {

        static Manifests parse(String rendered) {
            List<JsonNode> docs = new ArrayList<>();
            try (var parser = new YAMLFactory().createParser(rendered)) {
                Iterator<JsonNode> it = YAML.readValues(parser, JsonNode.class);
                while (it.hasNext()) {
                    JsonNode n = it.next();
                    if (n != null && !n.isNull() && !n.isMissingNode() && n.has("kind")) {
                        docs.add(n);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("rendered chart is not valid YAML", e);
            }
            return new Manifests(docs);
        }

        List<JsonNode> ofKind(String kind) {
            return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
        }

        JsonNode one(String kind, String name) {
            List<JsonNode> found = ofKind(kind).stream()
                    .filter(d -> name.equals(d.path("metadata").path("name").asText())).toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one " + kind + " named " + name + ", found " + found.size());
            }
            return found.get(0);
        }

        /** The Deployment of one service, found by its component label. */
        JsonNode deploymentOf(String service) {
            List<JsonNode> found = ofKind("Deployment").stream()
                    .filter(d -> service.equals(component(d))).toList();
            if (found.size() != 1) {
                throw new AssertionError("expected one Deployment for " + service + ", found " + found.size());
            }
            return found.get(0);
        }

        static String component(JsonNode doc) {
            return doc.path("metadata").path("labels").path("app.kubernetes.io/component").asText(null);
        }
    }
}
