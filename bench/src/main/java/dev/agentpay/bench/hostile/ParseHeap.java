package dev.agentpay.bench.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;

/**
 * Heap one request body holds once parsed to a tree, for the worst shape (an array of empty objects):
 * at the anonymous routes' 64 KiB limit and at the 8 MiB discovery took everywhere before issue 22.
 * {@code java -cp "bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/*" dev.agentpay.bench.hostile.ParseHeap}
 */
public final class ParseHeap {

    private ParseHeap() {
    }

    static long used() {
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
    public static void main(String[] args) throws Exception {
        ObjectMapper m = new ObjectMapper();
        for (int size : new int[] {64 * 1024, 8 * 1024 * 1024}) {
            StringBuilder sb = new StringBuilder(size).append('[');
            while (sb.length() + 3 < size) {
                sb.append("{},");
            }
            sb.append("{}]");
            String body = sb.toString();
            int n = size > 1 << 20 ? 3 : 50; // trees held at once, so the collector cannot free them
            List<JsonNode> held = new ArrayList<>();
            long before = used();
            for (int i = 0; i < n; i++) held.add(m.readTree(body));
            long after = used();
            System.out.printf("body %d bytes (array of {}): tree %.2f MiB per request (n=%d)%n", body.length(),
                    (after - before) / (double) n / (1 << 20), held.size());
        }
    }
}
