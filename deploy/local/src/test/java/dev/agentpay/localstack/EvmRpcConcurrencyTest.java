package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.chain.EvmRpc;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads sending from one unlocked account, each through its own {@link EvmRpc}, as a test's payer and its load
 * workers do: every send is accepted and gets its own nonce (anvil alone gave two concurrent sends the same one, and
 * the second failed with "replacement transaction underpriced" in RollingRestartIT).
 */
@Tag("servers") // starts anvil: not in the fast tier (-Pfast)
class EvmRpcConcurrencyTest {

    private static final String TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    @Test
    void concurrentSendsFromOneAccountEachGetTheirOwnNonce(@TempDir Path dir) throws Exception {
        AnvilNode node = new LocalStack(dir).startAnvil("t", 84532, Ports.free());
        try {
            int threads = 8;
            int each = 15;
            CountDownLatch go = new CountDownLatch(1);
            List<String> failures = new CopyOnWriteArrayList<>();
            List<String> hashes = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> senders = new ArrayList<>();
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
            for (int t = 0; t < threads; t++) {
                senders.add(CompletableFuture.runAsync(() -> {
                    EvmRpc rpc = new EvmRpc(node.rpcUrl());
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        try {
                            hashes.add(rpc.call("eth_sendTransaction", Map.of("from", AnvilNode.DEV_ADDRESS_0, "to", TO, "value", "0x1")).asText());
                        } catch (RuntimeException e) {
                            failures.add(e.getMessage());
                        }
                    }
                }, pool));
            }
            go.countDown();
            CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)).get();
            pool.shutdown();

            assertThat(failures).isEmpty();
            assertThat(hashes).hasSize(threads * each).doesNotHaveDuplicates();
            EvmRpc rpc = new EvmRpc(node.rpcUrl());
            await("every send mined").atMost(Duration.ofSeconds(30)).until(() ->
                    Long.decode(rpc.call("eth_getTransactionCount", AnvilNode.DEV_ADDRESS_0, "latest").asText()) == threads * each);
            for (String h : hashes) {
                assertThat(rpc.awaitReceipt(h, Duration.ofSeconds(30)).path("status").asText()).as(h).isEqualTo("0x1");
            }
        } finally {
            node.stop();
        }
    }
}
