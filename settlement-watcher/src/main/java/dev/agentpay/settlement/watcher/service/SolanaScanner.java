package dev.agentpay.settlement.watcher.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.SolanaClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.ScanResult;
import dev.agentpay.settlement.watcher.domain.Transfer;
import io.smallrye.mutiny.Uni;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Polls the seller's USDC token account(s) on Solana: new signatures at the configured commitment
 * ({@code finalized} by default) since the last one processed (per token account), each transaction read
 * in {@code jsonParsed}, and every top-level spl-token {@code transfer}/{@code transferChecked} of the USDC
 * mint into that account published with the transaction's spl-memo text. A failed transaction moves no
 * tokens and publishes nothing. Finalized transactions do not roll back, so nothing is retracted. A tick
 * is one non-blocking {@link Uni} pipeline (RPC calls and database steps one after another).
 */
public class SolanaScanner extends ChainScanner<SolanaClient> {

    private static final String SOURCE = "solana-detector";

    public SolanaScanner(ChainTable.Entry chain, SolanaClient rpc, WatcherLedger ledger, SettlementConfig config) {
        super(chain, rpc, ledger, config);
    }

    /** One tick: every token account of the seller for the mint, one after another; emits the events published. */
    @Override
    public Uni<Integer> tick() {
        String owner = chain.paymentAddress().orElseThrow();
        return rpc.tokenAccounts(owner, chain.usdcAddress()).flatMap(accounts -> {
            AtomicInteger published = new AtomicInteger();
            AtomicInteger next = new AtomicInteger();
            return Loops.whileMore(() -> next.get() >= accounts.size() ? Uni.createFrom().item(false)
                    : scanAccount(owner, accounts.get(next.getAndIncrement())).map(n -> {
                        published.addAndGet(n);
                        return true;
                    })).map(x -> published.get());
        });
    }

    private Uni<Integer> scanAccount(String owner, String account) {
        String key = "solana/" + account;
        return ledger.checkpoint(key).flatMap(cp -> signaturesSince(account, cp == null ? null : cp.cursor())).flatMap(sigs -> {
            if (sigs.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            Collections.reverse(sigs); // processed oldest first
            List<Transfer> found = new ArrayList<>();
            AtomicInteger next = new AtomicInteger();
            return Loops.whileMore(() -> {
                if (next.get() >= sigs.size()) {
                    return Uni.createFrom().item(false);
                }
                JsonNode s = sigs.get(next.getAndIncrement());
                if (!s.path("err").isNull() && !s.path("err").isMissingNode()) {
                    return Uni.createFrom().item(true); // failed transactions move no tokens
                }
                String signature = s.path("signature").asText();
                return rpc.transaction(signature).map(tx -> {
                    if (tx == null || tx.isNull() || tx.isMissingNode()) {
                        throw new SolanaClient.RpcException("solana getTransaction: " + signature + " not returned yet");
                    }
                    found.addAll(transfers(tx, owner, account));
                    return true;
                });
            }).flatMap(x -> {
                JsonNode newest = sigs.get(sigs.size() - 1);
                Checkpoint cursor = new Checkpoint(newest.path("slot").asLong(), null, newest.path("signature").asText());
                return ledger.commit(fence(), new ScanResult(key, found, List.of(), cursor, List.of(), -1), SOURCE, 0);
            });
        });
    }

    /** Signatures touching {@code account} after {@code until}, newest first, paged backwards down to the cursor. */
    private Uni<List<JsonNode>> signaturesSince(String account, String until) {
        List<JsonNode> sigs = new ArrayList<>();
        AtomicReference<String> before = new AtomicReference<>();
        int pageSize = config.solana().pageSize();
        return Loops.whileMore(() -> rpc.signatures(account, until, before.get(), pageSize).map(page -> {
            page.forEach(sigs::add);
            if (page.size() < pageSize) {
                return false;
            }
            before.set(page.get(page.size() - 1).path("signature").asText());
            return true;
        })).map(x -> sigs);
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
