package dev.agentpay.settlement.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.SolanaClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.domain.Checkpoint;
import dev.agentpay.settlement.domain.ScanResult;
import dev.agentpay.settlement.domain.Transfer;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Polls the seller's USDC token account(s) on Solana: new signatures at the configured commitment
 * ({@code finalized} by default) since the last one processed (per token account), each transaction read
 * in {@code jsonParsed}, and every top-level spl-token {@code transfer}/{@code transferChecked} of the USDC
 * mint into that account published with the transaction's spl-memo text. A failed transaction moves no
 * tokens and publishes nothing. Finalized transactions do not roll back, so nothing is retracted.
 */
public class SolanaScanner {

    private static final Duration DB_TIMEOUT = Duration.ofSeconds(30);
    private static final String SOURCE = "solana-detector";

    private final ChainTable.Entry chain;
    private final SolanaClient rpc;
    private final WatcherLedger ledger;
    private final SettlementConfig config;

    public SolanaScanner(ChainTable.Entry chain, SolanaClient rpc, WatcherLedger ledger, SettlementConfig config) {
        this.chain = chain;
        this.rpc = rpc;
        this.ledger = ledger;
        this.config = config;
    }

    public int tick() {
        String owner = chain.paymentAddress().orElseThrow();
        int published = 0;
        for (String account : rpc.tokenAccounts(owner, chain.usdcAddress())) {
            published += scanAccount(owner, account);
        }
        return published;
    }

    private int scanAccount(String owner, String account) {
        String key = "solana/" + account;
        Checkpoint cp = ledger.checkpoint(key).await().atMost(DB_TIMEOUT);
        String until = cp == null ? null : cp.cursor();
        // Newest first, paged backwards down to the cursor; processed oldest first.
        List<JsonNode> sigs = new ArrayList<>();
        String before = null;
        while (true) {
            JsonNode page = rpc.signatures(account, until, before, config.solana().pageSize());
            page.forEach(sigs::add);
            if (page.size() < config.solana().pageSize()) {
                break;
            }
            before = page.get(page.size() - 1).path("signature").asText();
        }
        if (sigs.isEmpty()) {
            return 0;
        }
        Collections.reverse(sigs);
        List<Transfer> found = new ArrayList<>();
        for (JsonNode s : sigs) {
            if (!s.path("err").isNull() && !s.path("err").isMissingNode()) {
                continue; // failed transactions move no tokens
            }
            JsonNode tx = rpc.transaction(s.path("signature").asText());
            if (tx == null || tx.isNull() || tx.isMissingNode()) {
                throw new IllegalStateException("transaction " + s.path("signature").asText() + " not returned yet");
            }
            found.addAll(transfers(tx, owner, account));
        }
        JsonNode newest = sigs.get(sigs.size() - 1);
        Checkpoint next = new Checkpoint(newest.path("slot").asLong(), null, newest.path("signature").asText());
        return ledger.commit(new ScanResult(key, found, List.of(), next, List.of(), -1), SOURCE, 0).await().atMost(DB_TIMEOUT);
    }

    /** USDC transfers into {@code account} in one jsonParsed transaction. */
    List<Transfer> transfers(JsonNode tx, String owner, String account) {
        if (!tx.path("meta").path("err").isNull() && !tx.path("meta").path("err").isMissingNode()) {
            return List.of();
        }
        String signature = tx.path("transaction").path("signatures").path(0).asText();
        long slot = tx.path("slot").asLong();
        JsonNode instructions = tx.path("transaction").path("message").path("instructions");
        String memo = null;
        for (JsonNode ins : instructions) {
            if ("spl-memo".equals(ins.path("program").asText()) && ins.path("parsed").isTextual()) {
                memo = ins.path("parsed").asText();
            }
        }
        JsonNode feePayerKey = tx.path("transaction").path("message").path("accountKeys").path(0);
        String feePayer = feePayerKey.isTextual() ? feePayerKey.asText() : feePayerKey.path("pubkey").asText();
        if (config.solana().x402FeePayers().orElse(List.of()).contains(feePayer)) {
            memo = null; // an x402 payment: its fee is never an invoice's payment
        }
        List<Transfer> out = new ArrayList<>();
        for (int i = 0; i < instructions.size(); i++) {
            JsonNode ins = instructions.get(i);
            if (!"spl-token".equals(ins.path("program").asText())) {
                continue;
            }
            String type = ins.path("parsed").path("type").asText();
            JsonNode info = ins.path("parsed").path("info");
            if (!account.equals(info.path("destination").asText())) {
                continue;
            }
            String mint;
            BigInteger amount;
            if ("transferChecked".equals(type)) {
                mint = info.path("mint").asText();
                amount = new BigInteger(info.path("tokenAmount").path("amount").asText("0"));
            } else if ("transfer".equals(type)) {
                mint = mintOf(tx, account);
                amount = new BigInteger(info.path("amount").asText("0"));
            } else {
                continue;
            }
            if (!chain.usdcAddress().equals(mint) || amount.signum() <= 0) {
                continue;
            }
            String from = info.hasNonNull("authority") ? info.path("authority").asText()
                    : info.path("multisigAuthority").asText(info.path("source").asText());
            out.add(new Transfer(chain.name(), signature, i, slot, null, from, owner, amount, mint, memo));
        }
        return out;
    }

    /** The mint of a token account in the transaction, from its token balances (plain {@code transfer} names none). */
    private static String mintOf(JsonNode tx, String account) {
        JsonNode keys = tx.path("transaction").path("message").path("accountKeys");
        for (JsonNode b : tx.path("meta").path("postTokenBalances")) {
            int idx = b.path("accountIndex").asInt(-1);
            JsonNode key = keys.path(idx);
            String pubkey = key.isTextual() ? key.asText() : key.path("pubkey").asText();
            if (account.equals(pubkey)) {
                return b.path("mint").asText();
            }
        }
        return null;
    }
}
