package dev.agentpay.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What must never be in a log, collected by every IT of the run (keys and secrets issued or sent, and
 * the lines that hostile values tried to forge), and checked over every log of the stack by
 * {@link StackStopIT} after the whole suite.
 */
final class LogEvidence {

    private static final Map<String, String> SECRETS = new LinkedHashMap<>();
    private static final Map<String, String> FORGED = new LinkedHashMap<>();

    private LogEvidence() {
    }

    /** A secret (a key, a signing secret) that must not appear in any log. */
    static synchronized void secret(String name, String value) {
        if (value != null && !value.isBlank()) {
            SECRETS.put(name, value);
        }
    }

    /** A line a hostile value tried to start in a log: it may appear escaped, never at a line start. */
    static synchronized void forgedLine(String name, String line) {
        FORGED.put(name, line);
    }

    static synchronized Map<String, String> secrets() {
        return new LinkedHashMap<>(SECRETS);
    }

    /**
     * Every finding in the logs of {@code logsDir}: a secret anywhere (hex secrets also without {@code 0x}),
     * a forged line at the start of a line. Anvil's banner prints its well-known development keys and is
     * searched for the platform's own secrets only.
     */
    static synchronized List<String> findings(Path logsDir, Map<String, String> devKeys) throws Exception {
        List<Path> logs;
        try (Stream<Path> s = Files.list(logsDir)) {
            logs = s.filter(Files::isRegularFile).sorted().toList();
        }
        List<String> found = new ArrayList<>();
        for (Path log : logs) {
            String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            Map<String, String> wanted = new LinkedHashMap<>(SECRETS);
            if (!log.getFileName().toString().startsWith("anvil-")) {
                wanted.putAll(devKeys);
            }
            wanted.forEach((name, value) -> {
                String v = value.startsWith("0x") ? value.substring(2) : value;
                if (text.contains(v)) {
                    found.add("secret " + name + " in " + log.getFileName());
                }
            });
            FORGED.forEach((name, line) -> {
                if (text.contains("\n" + line) || text.contains("\r" + line) || text.startsWith(line)) {
                    found.add("forged line " + name + " in " + log.getFileName());
                }
            });
        }
        if (logs.isEmpty()) {
            found.add("no logs in " + logsDir);
        }
        return found;
    }
}
