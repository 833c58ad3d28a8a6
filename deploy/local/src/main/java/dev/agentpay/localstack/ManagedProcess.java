package dev.agentpay.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A child process with its output in a log file, stopped (with its descendants) on {@link #stop()}
 * and when this JVM exits, so nothing is left running.
 */
public final class ManagedProcess implements Supervisor.Supervised {

    private final String name;
    private final Path log;
    private final Process process;

    private ManagedProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /** Completed by an owner that stops its parts in order at exit (see {@link #ownerStopsInOrder}). */
    private static volatile CountDownLatch orderedStop;

    /**
     * Declares that this JVM's owner (the launcher) stops its parts in dependency order at exit and
     * counts {@code done} down when finished. JVM shutdown hooks run all at once, so without this the
     * safety-net hooks below would stop Kafka and PostgreSQL while services are still leaving their
     * consumer groups (which then linger until their sessions time out, delaying consumption after the
     * next start); with it they wait and only stop what the owner left running.
     */
    public static void ownerStopsInOrder(CountDownLatch done) {
        orderedStop = done;
    }

    /** Runs {@code stop} at JVM exit, after the owner's ordered stop if there is one. */
    public static void stopAtExit(String name, Runnable stop) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            CountDownLatch owner = orderedStop;
            if (owner != null) {
                try {
                    owner.await(3, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            stop.run();
        }, name));
    }

    public static ManagedProcess start(String name, List<String> command, Map<String, String> env, Path workDir, Path log) {
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(env);
            ManagedProcess mp = new ManagedProcess(name, log, pb.start());
            stopAtExit("stop-" + name, mp::stop);
            return mp;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Polite stop (SIGTERM), then SIGKILL after 15 s; descendants too. */
    @Override
    public void stop() {
        stop(Duration.ofSeconds(15));
    }

    /**
     * SIGTERM to the process and its descendants, then waits up to {@code grace} for all of them to exit
     * (a descendant still writing its data after its parent left is waited for, not killed at once), and
     * SIGKILLs what is left.
     */
    public void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + grace.toNanos();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            for (ProcessHandle child : children) {
                long left = Math.max(0, deadline - System.nanoTime());
                try {
                    child.onExit().get(left, TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                    child.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    /** Kills without warning ({@code kill -9}); for fault-injection tests. */
    public void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
