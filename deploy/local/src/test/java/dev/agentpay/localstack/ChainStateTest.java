package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.chain.EvmRpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's chains keep their state across a stop (saved atomically just before anvil is stopped)
 * and a start; a chain whose state is lost or replaced is refused, naming {@code reset}; reset wipes it.
 */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class ChainStateTest {

    private static final String TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    private static long nonce(AnvilNode node) {
        return Long.decode(new EvmRpc(node.rpcUrl()).call("eth_getTransactionCount", AnvilNode.DEV_ADDRESS_0, "latest").asText());
    }

    private static void transfer(AnvilNode node) {
        new EvmRpc(node.rpcUrl()).call("eth_sendTransaction", Map.of("from", AnvilNode.DEV_ADDRESS_0, "to", TO, "value", "0x1"));
    }

    private static void awaitNonce(AnvilNode node, long n) {
        await("nonce " + n).atMost(Duration.ofSeconds(20)).until(() -> nonce(node) >= n);
        assertThat(nonce(node)).isEqualTo(n);
    }

    @Test
    void aStoppedChainComesBackWithItsStateAndALostOneIsRefused(@TempDir Path dir) throws Exception {
        LocalStack stack = new LocalStack(dir);
        int port = Ports.free();
        AnvilNode first = stack.startAnvil("t", 84532, port);
        Path state = first.stateFile();
        try {
            transfer(first);
            transfer(first);
            awaitNonce(first, 2);
        } finally {
            first.stop(); // saves, then SIGTERM
        }
        assertThat(first.isAlive()).isFalse();
        assertThat(new ObjectMapper().readTree(state.toFile()).isObject()).isTrue();
        assertThat(Files.exists(AnvilNode.markFile(state))).isTrue();
        assertThat(Files.exists(state.resolveSibling(state.getFileName() + ".tmp"))).isFalse();

        AnvilNode second = stack.startAnvil("t", 84532, port);
        try {
            assertThat(nonce(second)).isEqualTo(2);
            assertThat(second.verifyMark()).isNull();
            transfer(second);
            awaitNonce(second, 3);
            assertThat(second.saveState()).isTrue();
        } finally {
            second.process().kill(); // a crash: the last snapshot stays
        }
        AnvilNode third = stack.startAnvil("t", 84532, port);
        try {
            assertThat(nonce(third)).isEqualTo(3);
        } finally {
            third.stop();
        }

        byte[] saved = Files.readAllBytes(state);
        Files.delete(state);
        assertThatThrownBy(() -> stack.startAnvil("t", 84532, port))
                .isInstanceOf(LocalStack.StateLost.class)
                .hasMessageContaining("is missing").hasMessageContaining("deploy/local/run reset");
        Files.writeString(state, "{\"block\":");
        assertThatThrownBy(() -> stack.startAnvil("t", 84532, port))
                .isInstanceOf(LocalStack.StateLost.class).hasMessageContaining("unreadable");
        // A valid state of another chain (an older snapshot, a file from elsewhere) is refused too.
        Files.write(state, saved);
        String mark = Files.readString(AnvilNode.markFile(state));
        Files.writeString(AnvilNode.markFile(state), mark.replaceAll("block_hash=0x[0-9a-fA-F]+", "block_hash=0x" + "ab".repeat(32)));
        assertThatThrownBy(() -> stack.startAnvil("t", 84532, port))
                .isInstanceOf(LocalStack.StateLost.class).hasMessageContaining("not 0xabab");
        assertThat(Ports.awaitFree(port, java.time.Duration.ofSeconds(10))).isTrue(); // the refused chain was stopped

        stack.reset();
        assertThat(Files.exists(dir.resolve("data"))).isFalse();
        AnvilNode fresh = stack.startAnvil("t", 84532, port);
        try {
            assertThat(nonce(fresh)).isZero();
        } finally {
            fresh.stop();
        }
    }
}
