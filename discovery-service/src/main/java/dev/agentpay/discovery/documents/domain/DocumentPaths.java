package dev.agentpay.discovery.documents.domain;

/** Paths of the published documents, relative to the public base URL. */
public final class DocumentPaths {

    public static final String MANIFEST = "/.well-known/disco.json";
    public static final String AGENT_CARD = "/.well-known/agent-card.json";
    public static final String LLMS_TXT = "/llms.txt";
    public static final String MCP = "/disco/mcp";
    public static final String BENCHMARK = "/disco/benchmark.json";
    public static final String BENCHMARK_PUBLISH = "/disco/benchmark/publish";
    public static final String PRICING = "pricing";
    public static final String TRUST_SIGNALS = "trust_signals";

    private DocumentPaths() {
    }

    public static String section(String name) {
        return "/disco/sections/" + name + ".json";
    }

    public static String reference(String name) {
        return "/disco/reference/" + name;
    }

    public static String rawLogs(String benchmarkId) {
        return "/disco/benchmark/raw/" + benchmarkId + ".jsonl";
    }
}
