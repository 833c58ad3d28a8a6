package dev.agentpay.localstack.solana;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.agentpay.localstack.Base58;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A STAND-IN for a Solana JSON-RPC endpoint, for the local stack and tests only: no Solana validator
 * can run on these machines, so this small server keeps a list of SPL-token transfers in memory and
 * answers the read methods the settlement watcher uses in the shapes Solana's JSON-RPC documentation
 * gives ({@code getSignaturesForAddress}, {@code getTransaction} with {@code encoding: jsonParsed},
 * {@code getTokenAccountsByOwner} with {@code jsonParsed}, {@code getSlot}, {@code getHealth}).
 * Every transfer is a {@code transferChecked} of the spl-token program plus an optional spl-memo
 * instruction, and is {@code finalized} at once.
 *
 * <p>It is not a chain: nothing is signed or verified, token accounts are derived by hashing (not the
 * real associated-token-account PDA), balances are not checked. Transfers are injected with the
 * development-only method {@code standin_addTransfer} ({@code [{mint, from, to, amount, memo?, decimals?}]},
 * owners as base58 wallets, amount in atomic units), which answers {@code {signature, slot}}.
 */
public final class SolanaStandIn implements AutoCloseable {

    public static final String TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
    public static final String MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
    private static final String SYSTEM_PROGRAM = "11111111111111111111111111111111";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One injected transfer as it lives in the stand-in's ledger. */
    public record Tx(String signature, long slot, long blockTime, String mint, String fromOwner, String fromAccount,
            String toOwner, String toAccount, BigInteger amount, int decimals, String memo) {
    }

    private final HttpServer server;
    private final List<Tx> ledger = new ArrayList<>();
    private final Map<String, BigInteger> balances = new LinkedHashMap<>();
    private long slot = 250_000_000L;

    private SolanaStandIn(HttpServer server) {
        this.server = server;
    }

    /** Starts on 127.0.0.1 at this port (0 for any free port). */
    public static SolanaStandIn start(int port) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
            SolanaStandIn s = new SolanaStandIn(server);
            server.createContext("/", s::handle);
            server.setExecutor(Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "solana-standin");
                t.setDaemon(true);
                return t;
            }));
            server.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the Solana stand-in on port " + port, e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public String url() {
        return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** Records a finalized {@code transferChecked} (plus memo when given) and returns it. */
    public synchronized Tx addTransfer(String mint, String fromOwner, String toOwner, BigInteger amount, String memo, int decimals) {
        slot += 1 + RANDOM.nextInt(3);
        byte[] sig = new byte[64];
        RANDOM.nextBytes(sig);
        Tx tx = new Tx(Base58.encode(sig), slot, System.currentTimeMillis() / 1000, mint, fromOwner,
                tokenAccount(fromOwner, mint), toOwner, tokenAccount(toOwner, mint), amount, decimals, memo);
        ledger.add(tx);
        balances.merge(tx.toAccount(), amount, BigInteger::add);
        balances.merge(tx.fromAccount(), amount.negate(), BigInteger::add);
        return tx;
    }

    /** The token account the stand-in uses for an owner and mint (a hash, standing in for the ATA). */
    public static String tokenAccount(String owner, String mint) {
        try {
            return Base58.encode(MessageDigest.getInstance("SHA-256")
                    .digest(("ata:" + owner + ":" + mint).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        JsonNode response;
        try {
            if (!"POST".equals(ex.getRequestMethod())) {
                // Solana RPC nodes answer GET /health with "ok"
                byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, ok.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(ok);
                }
                return;
            }
            JsonNode req;
            try {
                req = JSON.readTree(ex.getRequestBody());
            } catch (IOException e) {
                response = error(null, -32700, "Parse error");
                send(ex, response);
                return;
            }
            if (req.isArray()) {
                ArrayNode batch = JSON.createArrayNode();
                req.forEach(r -> batch.add(dispatch(r)));
                response = batch;
            } else {
                response = dispatch(req);
            }
        } catch (RuntimeException e) {
            response = error(null, -32603, "Internal error: " + e.getMessage());
        }
        send(ex, response);
    }

    private static void send(HttpExchange ex, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        ex.getResponseHeaders().add("content-type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private JsonNode dispatch(JsonNode req) {
        JsonNode id = req.get("id");
        String method = req.path("method").asText("");
        JsonNode params = req.path("params");
        try {
            Object result = switch (method) {
                case "getHealth" -> "ok";
                case "getSlot", "getBlockHeight" -> currentSlot();
                case "getVersion" -> JSON.createObjectNode().put("solana-core", "standin").put("feature-set", 0);
                case "getSignaturesForAddress" -> signaturesForAddress(params.path(0).asText(), params.path(1));
                case "getTransaction" -> transaction(params.path(0).asText());
                case "getTokenAccountsByOwner" -> tokenAccountsByOwner(params.path(0).asText(), params.path(1));
                case "standin_addTransfer" -> addTransfer(params.path(0));
                default -> null;
            };
            if (result == null && !"getTransaction".equals(method)) {
                return error(id, -32601, "Method not found");
            }
            ObjectNode ok = JSON.createObjectNode().put("jsonrpc", "2.0");
            ok.set("result", JSON.valueToTree(result));
            ok.set("id", id);
            return ok;
        } catch (IllegalArgumentException e) {
            return error(id, -32602, "Invalid params: " + e.getMessage());
        }
    }

    private synchronized long currentSlot() {
        return slot;
    }

    private JsonNode addTransfer(JsonNode p) {
        String mint = required(p, "mint");
        String from = required(p, "from");
        String to = required(p, "to");
        BigInteger amount = new BigInteger(required(p, "amount"));
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        String memo = p.hasNonNull("memo") ? p.get("memo").asText() : null;
        Tx tx = addTransfer(mint, from, to, amount, memo, p.path("decimals").asInt(6));
        return JSON.createObjectNode().put("signature", tx.signature()).put("slot", tx.slot());
    }

    private static String required(JsonNode p, String field) {
        if (!p.hasNonNull(field) || p.get(field).asText().isBlank()) {
            throw new IllegalArgumentException(field + " is required");
        }
        return p.get(field).asText();
    }

    /** Newest first, as Solana answers; honours {@code limit}, {@code before} and {@code until}. */
    private synchronized ArrayNode signaturesForAddress(String address, JsonNode cfg) {
        if (address.isBlank()) {
            throw new IllegalArgumentException("address is required");
        }
        int limit = Math.min(1000, cfg.path("limit").asInt(1000));
        String before = cfg.path("before").asText(null);
        String until = cfg.path("until").asText(null);
        ArrayNode out = JSON.createArrayNode();
        boolean started = before == null;
        for (int i = ledger.size() - 1; i >= 0 && out.size() < limit; i--) {
            Tx tx = ledger.get(i);
            if (!started) {
                started = tx.signature().equals(before);
                continue;
            }
            if (tx.signature().equals(until)) {
                break;
            }
            if (!accountKeys(tx).contains(address)) {
                continue;
            }
            ObjectNode s = out.addObject();
            s.put("signature", tx.signature());
            s.put("slot", tx.slot());
            s.putNull("err");
            if (tx.memo() == null) {
                s.putNull("memo");
            } else {
                s.put("memo", "[" + tx.memo().getBytes(StandardCharsets.UTF_8).length + "] " + tx.memo());
            }
            s.put("blockTime", tx.blockTime());
            s.put("confirmationStatus", "finalized");
        }
        return out;
    }

    private static List<String> accountKeys(Tx tx) {
        List<String> keys = new ArrayList<>(List.of(tx.fromOwner(), tx.fromAccount(), tx.toAccount(), tx.mint(), TOKEN_PROGRAM));
        if (tx.memo() != null) {
            keys.add(MEMO_PROGRAM);
        }
        return keys;
    }

    private synchronized ObjectNode transaction(String signature) {
        Tx tx = ledger.stream().filter(t -> t.signature().equals(signature)).findFirst().orElse(null);
        if (tx == null) {
            return null;
        }
        ObjectNode r = JSON.createObjectNode();
        r.put("slot", tx.slot());
        r.put("blockTime", tx.blockTime());
        r.put("version", 0);
        ObjectNode meta = r.putObject("meta");
        meta.putNull("err");
        meta.put("fee", 5000);
        meta.putObject("status").putNull("Ok");
        meta.putArray("innerInstructions");
        meta.put("computeUnitsConsumed", 6200);
        ArrayNode logs = meta.putArray("logMessages");
        logs.add("Program " + TOKEN_PROGRAM + " invoke [1]").add("Program log: Instruction: TransferChecked")
                .add("Program " + TOKEN_PROGRAM + " success");
        if (tx.memo() != null) {
            logs.add("Program " + MEMO_PROGRAM + " invoke [1]")
                    .add("Program log: Memo (len " + tx.memo().length() + "): \"" + tx.memo() + "\"")
                    .add("Program " + MEMO_PROGRAM + " success");
        }
        ArrayNode preBal = meta.putArray("preBalances");
        ArrayNode postBal = meta.putArray("postBalances");
        List<String> keys = accountKeys(tx);
        for (int i = 0; i < keys.size(); i++) {
            preBal.add(i == 0 ? 1_000_000_000L : 2_039_280L);
            postBal.add(i == 0 ? 1_000_000_000L - 5000 : 2_039_280L);
        }
        BigInteger toAfter = balanceAfter(tx.toAccount(), tx);
        BigInteger fromAfter = balanceAfter(tx.fromAccount(), tx).max(BigInteger.ZERO);
        ArrayNode pre = meta.putArray("preTokenBalances");
        ArrayNode post = meta.putArray("postTokenBalances");
        tokenBalance(pre, 1, tx, tx.fromOwner(), fromAfter.add(tx.amount()));
        tokenBalance(pre, 2, tx, tx.toOwner(), toAfter.subtract(tx.amount()).max(BigInteger.ZERO));
        tokenBalance(post, 1, tx, tx.fromOwner(), fromAfter);
        tokenBalance(post, 2, tx, tx.toOwner(), toAfter);

        ObjectNode t = r.putObject("transaction");
        t.putArray("signatures").add(tx.signature());
        ObjectNode msg = t.putObject("message");
        ArrayNode ak = msg.putArray("accountKeys");
        for (int i = 0; i < keys.size(); i++) {
            ObjectNode k = ak.addObject();
            k.put("pubkey", keys.get(i));
            k.put("signer", i == 0);
            k.put("writable", i <= 2);
            k.put("source", "transaction");
        }
        msg.put("recentBlockhash", Base58.encode(sha(tx.signature())));
        ArrayNode ins = msg.putArray("instructions");
        ObjectNode transfer = ins.addObject();
        transfer.put("program", "spl-token");
        transfer.put("programId", TOKEN_PROGRAM);
        ObjectNode parsed = transfer.putObject("parsed");
        parsed.put("type", "transferChecked");
        ObjectNode info = parsed.putObject("info");
        info.put("source", tx.fromAccount());
        info.put("mint", tx.mint());
        info.put("destination", tx.toAccount());
        info.put("authority", tx.fromOwner());
        info.set("tokenAmount", uiAmount(tx.amount(), tx.decimals()));
        transfer.putNull("stackHeight");
        if (tx.memo() != null) {
            ObjectNode memo = ins.addObject();
            memo.put("program", "spl-memo");
            memo.put("programId", MEMO_PROGRAM);
            memo.put("parsed", tx.memo());
            memo.putNull("stackHeight");
        }
        return r;
    }

    /** A token account's balance right after {@code upTo} (the stand-in does not enforce balances). */
    private BigInteger balanceAfter(String account, Tx upTo) {
        BigInteger b = BigInteger.ZERO;
        for (Tx t : ledger) {
            if (t.toAccount().equals(account)) {
                b = b.add(t.amount());
            }
            if (t.fromAccount().equals(account)) {
                b = b.subtract(t.amount());
            }
            if (t == upTo) {
                break;
            }
        }
        return b;
    }

    private static void tokenBalance(ArrayNode arr, int index, Tx tx, String owner, BigInteger amount) {
        ObjectNode b = arr.addObject();
        b.put("accountIndex", index);
        b.put("mint", tx.mint());
        b.put("owner", owner);
        b.put("programId", TOKEN_PROGRAM);
        b.set("uiTokenAmount", uiAmount(amount, tx.decimals()));
    }

    private static ObjectNode uiAmount(BigInteger atomic, int decimals) {
        BigDecimal ui = new BigDecimal(atomic, decimals).stripTrailingZeros();
        ObjectNode n = JSON.createObjectNode();
        n.put("amount", atomic.toString());
        n.put("decimals", decimals);
        n.put("uiAmount", ui.doubleValue());
        n.put("uiAmountString", ui.toPlainString());
        return n;
    }

    /** {@code getTokenAccountsByOwner(owner, {mint}|{programId}, {encoding: jsonParsed})}. */
    private synchronized ObjectNode tokenAccountsByOwner(String owner, JsonNode filter) {
        String mint = filter.path("mint").asText(null);
        if (mint == null && !filter.has("programId")) {
            throw new IllegalArgumentException("filter must give mint or programId");
        }
        ObjectNode r = JSON.createObjectNode();
        r.putObject("context").put("slot", slot);
        ArrayNode value = r.putArray("value");
        Map<String, String[]> accounts = new LinkedHashMap<>();
        for (Tx tx : ledger) {
            if (tx.toOwner().equals(owner) && (mint == null || tx.mint().equals(mint))) {
                accounts.put(tx.toAccount(), new String[] {tx.mint(), Integer.toString(tx.decimals())});
            }
            if (tx.fromOwner().equals(owner) && (mint == null || tx.mint().equals(mint))) {
                accounts.put(tx.fromAccount(), new String[] {tx.mint(), Integer.toString(tx.decimals())});
            }
        }
        accounts.forEach((pubkey, m) -> {
            ObjectNode a = value.addObject();
            a.put("pubkey", pubkey);
            ObjectNode acc = a.putObject("account");
            ObjectNode data = acc.putObject("data");
            data.put("program", "spl-token");
            ObjectNode parsed = data.putObject("parsed");
            ObjectNode info = parsed.putObject("info");
            info.put("isNative", false);
            info.put("mint", m[0]);
            info.put("owner", owner);
            info.put("state", "initialized");
            info.set("tokenAmount", uiAmount(balances.getOrDefault(pubkey, BigInteger.ZERO).max(BigInteger.ZERO), Integer.parseInt(m[1])));
            parsed.put("type", "account");
            data.put("space", 165);
            acc.put("executable", false);
            acc.put("lamports", 2_039_280L);
            acc.put("owner", TOKEN_PROGRAM);
            acc.put("rentEpoch", new BigInteger("18446744073709551615"));
            acc.put("space", 165);
        });
        return r;
    }

    private static byte[] sha(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode e = JSON.createObjectNode().put("jsonrpc", "2.0");
        e.putObject("error").put("code", code).put("message", message);
        e.set("id", id);
        return e;
    }

    /** Runs the stand-in alone: {@code SolanaStandIn [port]} (default 8899, Solana's RPC port). */
    public static void main(String[] args) throws InterruptedException {
        SolanaStandIn s = start(args.length > 0 ? Integer.parseInt(args[0]) : 8899);
        System.out.println("Solana JSON-RPC stand-in (not a validator) on " + s.url());
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        Thread.currentThread().join();
    }
}
