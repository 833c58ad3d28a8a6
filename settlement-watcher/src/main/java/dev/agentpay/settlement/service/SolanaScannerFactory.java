package dev.agentpay.settlement.service;

import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.SolanaClient;
import dev.agentpay.settlement.config.SettlementConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Builds the Solana scanner with its RPC client. */
@ApplicationScoped
public class SolanaScannerFactory {

    @Inject
    WatcherLedger ledger;

    @Inject
    SettlementConfig config;

    public SolanaScanner create(ChainTable.Entry chain) {
        return new SolanaScanner(chain, new SolanaClient(chain.rpcUrl().orElseThrow(), config.solana().rpcTimeout(),
                config.solana().commitment().name()), ledger, config);
    }
}
