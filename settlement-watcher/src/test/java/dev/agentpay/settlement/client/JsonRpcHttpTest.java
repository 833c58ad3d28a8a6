package dev.agentpay.settlement.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.mutiny.core.Vertx;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chain clients' transport against an endpoint that accepts connections and never answers (an RPC
 * provider hanging): each call fails within its timeout with the client's own exception, and no thread
 * is held meanwhile (the calls are in flight together on one event loop).
 */
class JsonRpcHttpTest {

    private static Vertx vertx;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() {
        vertx.closeAndAwait();
    }

    @Test
    void aHangingEndpointFailsEachCallWithinItsTimeoutAsTheClientsOwnException() throws Exception {
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(server.accept()); // read nothing, answer nothing
                    }
                } catch (Exception closed) {
                    // the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            String url = "http://127.0.0.1:" + server.getLocalPort() + "/";
            EvmClient evm = new EvmClient(vertx, "base", url, Duration.ofMillis(500));
            SolanaClient solana = new SolanaClient(vertx, url, Duration.ofMillis(500), "finalized");
            try {
                long t0 = System.nanoTime();
                var head = evm.head().subscribeAsCompletionStage();
                var slot = solana.slot().subscribeAsCompletionStage();
                assertThatThrownBy(() -> head.toCompletableFuture().get(5, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(EvmClient.RpcException.class).hasMessageContaining("base eth_blockNumber");
                assertThatThrownBy(() -> slot.toCompletableFuture().get(5, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(SolanaClient.RpcException.class).hasMessageContaining("solana getSlot");
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
            } finally {
                evm.close();
                solana.close();
                for (Socket s : accepted) {
                    s.close();
                }
            }
        }
    }
}
