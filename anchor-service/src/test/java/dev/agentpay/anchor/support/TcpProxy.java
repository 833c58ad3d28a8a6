package dev.agentpay.anchor.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in front of anvil that a test can cut ({@link #down()}) and restore ({@link #up()}) on
 * the same port: the service sees its RPC endpoint refuse connections, as when the node is down,
 * while the chain itself keeps its state.
 */
public final class TcpProxy implements AutoCloseable {

    private final int targetPort;
    private final int port;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket server;

    public TcpProxy(int targetPort) {
        this.targetPort = targetPort;
        try (ServerSocket probe = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        up();
    }

    public int port() {
        return port;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public synchronized boolean isUp() {
        return server != null;
    }

    /** Accepts connections again (same port). */
    public synchronized void up() {
        if (server != null) {
            return;
        }
        try {
            ServerSocket s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            server = s;
            Thread t = new Thread(() -> accept(s), "tcp-proxy-accept-" + port);
            t.setDaemon(true);
            t.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot bind proxy port " + port, e);
        }
    }

    /** Refuses new connections and cuts the open ones. */
    public synchronized void down() {
        if (server == null) {
            return;
        }
        closeQuietly(server);
        server = null;
        sockets.forEach(TcpProxy::closeQuietly);
        sockets.clear();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket client = s.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed by down(), or the target refused: the client sees a reset
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // connection cut
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                sockets.remove(from);
                sockets.remove(to);
            }
        }, "tcp-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already closed
        }
    }

    @Override
    public void close() {
        down();
    }
}
