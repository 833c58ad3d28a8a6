package dev.agentpay.settlement.service;

import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.SolanaClient;
import dev.agentpay.settlement.config.SettlementConfig;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Builds the Solana scanner with its RPC client. */
@ApplicationScoped
public class SolanaScannerFactory {

    @Inject
    WatcherLedger ledger;

    @Inject
    SettlementConfig config;

    @Inject
    Vertx vertx;

    /** The chain's RPC client (the caller closes it). */
    public SolanaClient client(ChainTable.Entry chain) {
        return new SolanaClient(vertx, chain.rpcUrl().orElseThrow(), config.solana().rpcTimeout(), config.solana().commitment().name());
    }

    public SolanaScanner create(ChainTable.Entry chain, SolanaClient client) {
        return new SolanaScanner(chain, client, ledger, config);
    }
}
