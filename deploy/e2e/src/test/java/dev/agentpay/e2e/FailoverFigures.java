package dev.agentpay.e2e;

import dev.agentpay.localstack.RepoPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The failover figures of {@link FailoverIT}, {@link DrainIT} and {@link RollingRestartIT}, one table row per
 * measurement with the load average when it was taken, printed and appended to
 * {@code deploy/e2e/target/failover-figures.md} (bench/FAULTS.md takes them from there).
 */
final class FailoverFigures {

    static final Path FILE = RepoPaths.root().resolve("deploy/e2e/target/failover-figures.md");
    private static boolean started;

    private FailoverFigures() {
    }

    /** Appends one row {@code | service | fault | ... |} with the 1-minute load average. */
    static synchronized void row(String row) {
        try {
            if (!started) {
                Files.createDirectories(FILE.getParent());
                Files.writeString(FILE, "| service | fault | work moved to another instance | effect seen | load (1 min) |\n"
                        + "|---|---|---|---|---|\n");
                started = true;
            }
            String line = row + " " + load() + " |";
            Files.writeString(FILE, line + "\n", StandardOpenOption.APPEND);
            System.out.println("[failover] " + line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The 1-minute load average (shared machine, not a quiet run). */
    static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0];
        } catch (IOException e) {
            return "?";
        }
    }
}
