package dev.agentpay.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code KEY=VALUE} files under {@code .local/}: the stack contract and the persisted dev secrets. */
public final class StackEnv {

    private StackEnv() {
    }

    public static Map<String, String> read(Path file) {
        Map<String, String> m = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return m;
        }
        try {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith("#")) {
                    m.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return m;
    }

    public static void write(Path file, Map<String, String> values, String header) {
        StringBuilder sb = new StringBuilder("# ").append(header).append('\n');
        values.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        try {
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, sb.toString());
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
