package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Native-image readiness without GraalVM: the reflection configuration shipped in
 * {@code META-INF/native-image/dev.agentpay/<module>/} of each module names every JSON-bound class of the
 * libraries that module uses (Jackson-bound web3j JSON-RPC types and ABI types, the
 * service-commons event and error records), and only classes that exist. Regenerate after a library
 * upgrade with {@code -Dagentpay.native.regenerate=true}.
 */
class NativeImageConfigTest {

    /** web3j: Jackson binds JSON-RPC requests/responses; the ABI decoder instantiates datatypes reflectively; EIP-712 JSON. */
    static final List<String> WEB3J = List.of(
            "org.web3j.protocol.core",
            "org.web3j.protocol.core.methods.request",
            "org.web3j.protocol.core.methods.response",
            "org.web3j.protocol.deserializer",
            "org.web3j.abi",
            "org.web3j.abi.datatypes",
            "org.web3j.abi.datatypes.generated",
            "org.web3j.abi.datatypes.primitive",
            "org.web3j.crypto.StructuredData");

    /** service-commons: the records EventCodec and the error mappers (de)serialize. */
    static final List<String> COMMONS = List.of(
            "dev.agentpay.commons.events",
            "dev.agentpay.commons.error");

    /**
     * Which module needs which libraries' configuration: only modules that use the library (invoice-service
     * reaches chains through the x402 facilitator; add it here and regenerate if it starts using web3j).
     */
    static final Map<String, List<List<String>>> MODULES = Map.of(
            "service-commons", List.of(COMMONS),
            "anchor-service", List.of(WEB3J),
            "settlement-watcher", List.of(WEB3J));

    /**
     * Generated contract wrappers in the services' own sources: web3j decodes event logs through the
     * wrapper's anonymous {@code TypeReference} subclasses (their generic superclass is read reflectively)
     * and instantiates the event response classes.
     */
    static final Map<String, List<String>> CONTRACT_WRAPPERS = Map.of(
            "anchor-service", List.of("dev.agentpay.anchor.contract.MandateAnchor"));

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static Path configDir(String module) {
        return Chart.repoRoot().resolve(module).resolve("src/main/resources/META-INF/native-image/dev.agentpay")
                .resolve(module);
    }

    @Test
    void reflectionConfigListsEveryJsonBoundClassOfTheLibrariesUsed() throws IOException {
        boolean regenerate = Boolean.getBoolean("agentpay.native.regenerate");
        for (Map.Entry<String, List<List<String>>> m : MODULES.entrySet()) {
            TreeSet<String> expected = new TreeSet<>();
            m.getValue().forEach(groups -> groups.forEach(p -> expected.addAll(classesOf(p))));
            for (String wrapper : CONTRACT_WRAPPERS.getOrDefault(m.getKey(), List.of())) {
                expected.addAll(wrapperClasses(m.getKey(), wrapper));
            }
            Path file = configDir(m.getKey()).resolve("reflect-config.json");
            if (regenerate) {
                write(file, expected);
            }
            assertThat(file).as("reflection config of " + m.getKey()).exists();
            TreeSet<String> listed = new TreeSet<>();
            for (JsonNode entry : JSON.readTree(file.toFile())) {
                listed.add(entry.path("name").asText());
                assertThat(entry.path("allDeclaredConstructors").asBoolean()).as(entry.toString()).isTrue();
                assertThat(entry.path("allDeclaredMethods").asBoolean()).as(entry.toString()).isTrue();
                assertThat(entry.path("allDeclaredFields").asBoolean()).as(entry.toString()).isTrue();
            }
            assertThat(listed).as("classes registered for reflection in " + m.getKey()
                    + " (after a library upgrade or a new class: rerun with -Dagentpay.native.regenerate=true)")
                    .isEqualTo(expected);
        }
    }

    @Test
    void everyRegisteredClassExists() throws IOException {
        for (String module : MODULES.keySet()) {
            for (JsonNode entry : JSON.readTree(configDir(module).resolve("reflect-config.json").toFile())) {
                String name = entry.path("name").asText();
                if (CONTRACT_WRAPPERS.getOrDefault(module, List.of()).stream().anyMatch(name::startsWith)) {
                    continue; // the service's own classes are not on this module's classpath; derived from source above
                }
                assertThat(loads(name)).as(module + " registers missing class " + name).isTrue();
            }
        }
    }

    @Test
    void web3jVersionResourceIsIncluded() throws IOException {
        // org.web3j.utils.Version reads it; native images carry only resources that are declared.
        assertThat(getClass().getClassLoader().getResource("web3j-version.properties")).isNotNull();
        for (String module : List.of("anchor-service", "settlement-watcher")) {
            JsonNode rc = JSON.readTree(configDir(module).resolve("resource-config.json").toFile());
            List<String> patterns = new ArrayList<>();
            rc.path("resources").path("includes").forEach(i -> patterns.add(i.path("pattern").asText()));
            assertThat(patterns.stream().anyMatch("web3j-version.properties"::matches))
                    .as("resource-config of " + module + " includes web3j-version.properties: " + patterns).isTrue();
        }
    }

    @Test
    void commonsRegistersEveryDomainEventRecord() {
        // Guard for the enumeration itself: the event records a service decodes are among the expected classes.
        assertThat(classesOf("dev.agentpay.commons.events")).contains(
                "dev.agentpay.commons.events.MandateEvent", "dev.agentpay.commons.events.PartnerEvent",
                "dev.agentpay.commons.events.ChainTransferEvent", "dev.agentpay.commons.events.Topics$TopicSpec");
        assertThat(classesOf("org.web3j.protocol.core.methods.response"))
                .contains("org.web3j.protocol.core.methods.response.EthBlock$Block",
                        "org.web3j.protocol.core.methods.response.Log");
    }

    @Test
    void contractWrapperClassesAreDerivedFromTheSource() {
        // MandateAnchor: TypeReferences for its three events (MandateAnchored, SignerAdded, SignerRemoved) and isSigner, and the event responses.
        assertThat(wrapperClasses("anchor-service", "dev.agentpay.anchor.contract.MandateAnchor")).contains(
                "dev.agentpay.anchor.contract.MandateAnchor",
                "dev.agentpay.anchor.contract.MandateAnchor$MandateAnchoredEventResponse",
                "dev.agentpay.anchor.contract.MandateAnchor$1");
    }

    /** The wrapper, its nested classes and its anonymous classes ($1..$n in source order), read from its source. */
    static TreeSet<String> wrapperClasses(String module, String wrapper) {
        Path source = Chart.repoRoot().resolve(module).resolve("src/main/java")
                .resolve(wrapper.replace('.', '/') + ".java");
        String text;
        try {
            text = Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TreeSet<String> out = new TreeSet<>();
        out.add(wrapper);
        var nested = java.util.regex.Pattern.compile("\\n    public static class (\\w+)").matcher(text);
        while (nested.find()) {
            out.add(wrapper + "$" + nested.group(1));
        }
        var anonymous = java.util.regex.Pattern.compile("new [\\w.<>?, ]+\\([^()]*\\)\\s*\\{").matcher(text);
        int n = 0;
        while (anonymous.find()) {
            out.add(wrapper + "$" + (++n));
        }
        return out;
    }

    private static boolean loads(String name) {
        try {
            Class.forName(name, false, NativeImageConfigTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * Named (non-anonymous) classes of a package, or a class and its nested classes when {@code name} is a class.
     */
    static TreeSet<String> classesOf(String name) {
        TreeSet<String> out = new TreeSet<>();
        ClassLoader cl = NativeImageConfigTest.class.getClassLoader();
        boolean isClass = cl.getResource(name.replace('.', '/') + ".class") != null;
        String dir = isClass ? name.substring(0, name.lastIndexOf('.')).replace('.', '/')
                : name.replace('.', '/');
        try {
            Enumeration<URL> urls = cl.getResources(dir + "/");
            while (urls.hasMoreElements()) {
                for (String entry : list(urls.nextElement(), dir)) {
                    String cls = (dir + "/" + entry).replace('/', '.').replaceAll("\\.class$", "");
                    String simple = entry.replaceAll("\\.class$", "");
                    if (simple.equals("package-info") || simple.equals("module-info")
                            || simple.matches(".*\\$\\d.*")) {
                        continue;
                    }
                    if (isClass && !(cls.equals(name) || cls.startsWith(name + "$"))) {
                        continue;
                    }
                    out.add(cls);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty()) {
            throw new AssertionError("no classes found for " + name + " on the test classpath");
        }
        return out;
    }

    private static List<String> list(URL url, String dir) throws IOException {
        List<String> names = new ArrayList<>();
        if ("jar".equals(url.getProtocol())) {
            JarURLConnection conn = (JarURLConnection) url.openConnection();
            conn.setUseCaches(false);
            try (JarFile jar = conn.getJarFile()) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String n = entries.nextElement().getName();
                    if (n.startsWith(dir + "/") && n.endsWith(".class") && n.indexOf('/', dir.length() + 1) < 0) {
                        names.add(n.substring(dir.length() + 1));
                    }
                }
            }
        } else {
            try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class")).forEach(names::add);
            } catch (URISyntaxException e) {
                throw new IllegalStateException(e);
            }
        }
        return names;
    }

    private static void write(Path file, TreeSet<String> classes) throws IOException {
        ArrayNode arr = JSON.createArrayNode();
        for (String c : classes) {
            ObjectNode e = arr.addObject();
            e.put("name", c);
            e.put("allDeclaredConstructors", true);
            e.put("allPublicConstructors", true);
            e.put("allDeclaredMethods", true);
            e.put("allPublicMethods", true);
            e.put("allDeclaredFields", true);
            e.put("allPublicFields", true);
        }
        Files.createDirectories(file.getParent());
        Files.writeString(file, JSON.writeValueAsString(arr) + "\n");
    }
}
