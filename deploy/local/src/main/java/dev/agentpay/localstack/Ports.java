package dev.agentpay.localstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** Free-port discovery and readiness waits. */
public final class Ports {

    private Ports() {
    }

    public static int free() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code preferred} when it is free, else any free port. */
    public static int freeOr(int preferred) {
        if (preferred > 0 && isFree(preferred)) {
            return preferred;
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
