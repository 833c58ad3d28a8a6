package dev.agentpay.localstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/** Free-port discovery and readiness waits. */
public final class Ports {

    private Ports() {
    }

    /** Every port {@link #free()} has handed out in this JVM: none is handed out twice. */
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    /**
     * A port nothing listens on now and that this JVM has not handed out before. The kernel may give the
     * same ephemeral port to two consecutive {@code bind(0)} calls once the first socket is closed (seen: the
     * launcher gave discovery-service and webhook-dispatcher one port, and the second could never start), so
     * the ports given out are remembered until the JVM exits.
     */
    public static int free() {
        synchronized (HANDED_OUT) {
            for (int attempt = 0; attempt < 1000; attempt++) {
                int port;
                try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                    port = s.getLocalPort();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            }
            throw new IllegalStateException("no free port that was not handed out already");
        }
    }

    /** {@code preferred} when it is free, else any free port. */
    public static int freeOr(int preferred) {
        if (preferred > 0 && isFree(preferred)) {
            synchronized (HANDED_OUT) {
                if (HANDED_OUT.add(preferred)) {
                    return preferred;
                }
            }
        }
        return free();
    }

    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits until {@code port} can be bound (a process that held it exits); false after {@code timeout}. */
    public static boolean awaitFree(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!isFree(port)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            sleep(200);
        }
        return true;
    }

    public static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public static void awaitListening(int port, Duration timeout, ManagedProcess owner) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (listening(port)) {
                return;
            }
            if (owner != null && !owner.isAlive()) {
                throw new IllegalStateException(owner.name() + " exited before listening on " + port + "; see " + owner.log());
            }
            sleep(100);
        }
        throw new IllegalStateException("nothing listens on " + port + " after " + timeout
                + (owner == null ? "" : "; see " + owner.log()));
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
