package dev.agentpay.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The launcher's own files in the state directory: its pid, its children's pids, and the wipe of {@code reset}. */
final class LauncherFiles {

    private LauncherFiles() {
    }

    /** Records the launcher's child processes ({@code children.pid}), so a later start can stop them. */
    static void recordPids(Path local) throws IOException {
        StringBuilder sb = new StringBuilder();
        ProcessHandle.current().descendants().forEach(h -> sb.append(h.pid()).append('\n'));
        Files.writeString(local.resolve("children.pid"), sb.toString());
    }

    /** Stops a previous launcher (and, if it died hard, the children it left behind). */
    static void stopPrevious(Path local, boolean verbose) throws Exception {
        Path pidFile = local.resolve("launcher.pid");
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            var handle = ProcessHandle.of(pid).filter(h -> h.pid() != ProcessHandle.current().pid());
            if (handle.isPresent() && handle.get().info().command().map(c -> c.contains("java")).orElse(false)) {
                if (verbose) {
                    System.out.println("stopping the local stack (pid " + pid + ")");
                }
                handle.get().destroy();
                // The launcher stops its parts in order (services leave their groups, chains save their
                // state, then Kafka and PostgreSQL): wait for all of it, not a fixed minute.
                try {
                    handle.get().onExit().get(4, java.util.concurrent.TimeUnit.MINUTES);
                } catch (java.util.concurrent.TimeoutException e) {
                    System.out.println("the local stack (pid " + pid + ") did not stop within 4 minutes; killing it");
                    handle.get().destroyForcibly();
                    handle.get().onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
                }
            } else if (verbose) {
                System.out.println("no running local stack");
            }
        } else if (verbose) {
            System.out.println("no running local stack");
        }
        Path children = local.resolve("children.pid");
        if (Files.exists(children)) {
            // Left behind by a launcher that died hard: killed, and waited for, so that the next start finds
            // their ports and data directories free (a broker still exiting held Kafka's port: issue 16).
            List<ProcessHandle> left = new ArrayList<>();
            for (String line : Files.readAllLines(children)) {
                if (!line.isBlank()) {
                    ProcessHandle.of(Long.parseLong(line.trim())).ifPresent(left::add);
                }
            }
            left.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle h : left) {
                try {
                    h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    System.out.println("process " + h.pid() + " did not exit after SIGKILL");
                }
            }
            Files.delete(children);
        }
    }

    /**
     * {@code reset}: stops a running stack, then wipes every part's state together (PostgreSQL, Kafka,
     * every chain's state and marks, the remembered contract address, stack.env), so the next start
     * begins consistent and empty. Development secrets ({@code secrets.env}) and logs are kept.
     */
    static void reset(Path local, Path data) throws Exception {
        stopPrevious(local, true);
        if (Files.isDirectory(data)) {
            try (var paths = Files.walk(data)) {
                for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.deleteIfExists(local.resolve("stack.env"));
        System.out.println("wiped " + data + " (databases, Kafka, chains) and stack.env; secrets.env and logs kept");
    }
}
