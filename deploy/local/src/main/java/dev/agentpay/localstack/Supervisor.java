package dev.agentpay.localstack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the stack's processes running the way Kubernetes keeps a pod's containers running: a process
 * that exits while the stack is not stopping is started again with the same command, environment,
 * port and data directory, after a back-off that grows while it keeps failing (1 s, 2 s, ... 15 s).
 * Every process's current pid is in {@code <state-dir>/pids/<name>.pid} (rewritten on each restart),
 * so fault-injection tests can {@code kill -9} it; restarts are counted in
 * {@code <state-dir>/pids/<name>.restarts} and logged on the launcher's output.
 */
public final class Supervisor implements AutoCloseable {

    /** Something the supervisor watches: a child process, or a server owning one. */
    public interface Supervised {
        long pid();

        boolean isAlive();

        /** Stops it politely (used on shutdown and to discard a half-dead instance before a restart). */
        void stop();
    }

    /** Starts a new, ready instance (blocks until it serves). */
    @FunctionalInterface
    public interface Starter {
        Supervised start() throws Exception;
    }

    private static final Duration MIN_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(15);
    /** A process that ran this long before exiting restarts after the minimum back-off again. */
    private static final Duration HEALTHY_RUN = Duration.ofSeconds(30);

    private final Path pidDir;
    private final Runnable onRestart;
    private final List<Slot> slots = new CopyOnWriteArrayList<>();
    private final Map<String, Slot> byName = new ConcurrentHashMap<>();
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "supervisor"));
    private final ExecutorService restarter = Executors.newCachedThreadPool(r -> daemon(r, "supervisor-restart"));
    private volatile boolean stopping;

    /** One supervised process. */
    private final class Slot {
        final String name;
        final Starter starter;
        volatile Supervised current;
        volatile boolean restarting;
        volatile long startedAt = System.nanoTime();
        int failures;
        int restarts;

        Slot(String name, Supervised first, Starter starter) {
            this.name = name;
            this.current = first;
            this.starter = starter;
        }
    }

    /**
     * @param onRestart run after every successful restart (the launcher rewrites its list of child pids)
     */
    public Supervisor(Path stateDir, Runnable onRestart) {
        this.pidDir = stateDir.resolve("pids");
        this.onRestart = onRestart;
        watcher.scheduleWithFixedDelay(this::check, 250, 250, TimeUnit.MILLISECONDS);
        // Shutdown hooks run concurrently: the processes' own stop hooks must not look like crashes.
        Runtime.getRuntime().addShutdownHook(new Thread(this::halt, "supervisor-halt"));
    }

    /** Watches {@code first}; when it exits unexpectedly, {@code restart} starts its replacement. */
    public void supervise(String name, Supervised first, Starter restart) {
        Slot slot = new Slot(name, first, restart);
        slots.add(slot);
        byName.put(name, slot);
        writePid(slot);
    }

    /** Stops a supervised process for good (no restart), e.g. on shutdown. */
    public void stop(String name) {
        Slot slot = byName.get(name);
        if (slot != null) {
            slots.remove(slot);
            slot.current.stop();
        }
    }

    /** The current instance of a supervised process. */
    public Supervised current(String name) {
        Slot slot = byName.get(name);
        return slot == null ? null : slot.current;
    }

    /** From now on nothing is restarted: the stack is stopping. */
    public void halt() {
        stopping = true;
        watcher.shutdownNow();
    }

    @Override
    public void close() {
        halt();
        restarter.shutdownNow();
    }

    private void check() {
        if (stopping) {
            return;
        }
        for (Slot slot : slots) {
            if (!slot.restarting && !slot.current.isAlive()) {
                slot.restarting = true;
                restarter.execute(() -> restart(slot));
            }
        }
    }

    private void restart(Slot slot) {
        try {
            if (System.nanoTime() - slot.startedAt > HEALTHY_RUN.toNanos()) {
                slot.failures = 0;
            }
            while (!stopping) {
                long backoff = Math.min(MAX_BACKOFF.toMillis(), MIN_BACKOFF.toMillis() << Math.min(slot.failures, 4));
                log("%s (pid %d) exited; restarting in %.1f s (restart #%d)", slot.name, slot.current.pid(),
                        backoff / 1000.0, slot.restarts + 1);
                slot.current.stop(); // descendants and locks of the dead instance go first
                Thread.sleep(backoff);
                if (stopping) {
                    return;
                }
                long t = System.nanoTime();
                try {
                    Supervised next = slot.starter.start();
                    slot.current = next;
                    slot.startedAt = System.nanoTime();
                    slot.restarts++;
                    writePid(slot);
                    log("%s restarted (pid %d) in %.1f s", slot.name, next.pid(), (System.nanoTime() - t) / 1e9);
                    onRestart.run();
                    return;
                } catch (Exception e) {
                    slot.failures++;
                    log("%s restart failed after %.1f s: %s", slot.name, (System.nanoTime() - t) / 1e9, e.getMessage());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log("%s supervision error: %s", slot.name, e);
        } finally {
            slot.restarting = false;
        }
    }

    private void writePid(Slot slot) {
        try {
            Files.createDirectories(pidDir);
            Path tmp = pidDir.resolve(slot.name + ".pid.tmp");
            Files.writeString(tmp, Long.toString(slot.current.pid()));
            Files.move(tmp, pidDir.resolve(slot.name + ".pid"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            Files.writeString(pidDir.resolve(slot.name + ".restarts"), Integer.toString(slot.restarts));
        } catch (IOException e) {
            log("cannot write the pid file of %s: %s", slot.name, e.getMessage());
        }
    }

    private static void log(String format, Object... args) {
        System.out.printf("[supervisor] " + format + "%n", args);
        System.out.flush();
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
