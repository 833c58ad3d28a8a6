package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.config.AnchorConfig;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;

/**
 * What every stage of anchoring ({@link AnchorPipeline}, {@link Batcher}, {@link Confirmer},
 * {@link NonceGapHealer}) works on: the signer's account, as the chain sees it ({@link AnchorChainClient})
 * and as the database records it ({@link AnchorRepository} over the {@link Pool}), under one configuration,
 * and the one way its signed transactions reach the chain ({@link Broadcaster}).
 */
abstract class AnchorStage {

    @Inject
    AnchorConfig config;
    @Inject
    AnchorChainClient chain;
    @Inject
    AnchorRepository repo;
    @Inject
    AnchorSigner signer;
    @Inject
    Pool pool;
    @Inject
    Broadcaster broadcaster;
    @Inject
    SignerLease lease;
}
