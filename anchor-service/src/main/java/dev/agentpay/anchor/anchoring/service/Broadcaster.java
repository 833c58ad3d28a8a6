package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.client.ChainRejectedException;
import dev.agentpay.anchor.client.ChainUnavailableException;
import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.jboss.logging.Logger;

/** Sends stored signed bytes to the node; a failure is left to a later rebroadcast (the bytes are safe in the database). */
@ApplicationScoped
public class Broadcaster {

    private static final Logger LOG = Logger.getLogger(Broadcaster.class);

    @Inject
    AnchorChainClient chain;
    @Inject
    AnchorRepository repo;
    @Inject
    Pool pool;

    /** Broadcasts one stored transaction and records when it was accepted (or already known). */
    public Uni<Void> broadcast(long nonce, String hash, String raw) {
        return chain.sendRawTransaction(raw)
                .replaceWith(true)
                .onFailure(ChainRejectedException.class).recoverWithUni(e -> {
                    if (((ChainRejectedException) e).alreadyKnownOrNonceUsed()) {
                        return Uni.createFrom().item(true);
                    }
                    LOG.errorf("anchor tx %s (nonce %d) rejected by the node, will retry: %s", hash, nonce, e.getMessage());
                    return Uni.createFrom().item(false);
                })
                .onFailure(ChainUnavailableException.class).recoverWithUni(e -> {
                    LOG.warnf("anchor tx %s (nonce %d) not broadcast, will retry: %s", hash, nonce, e.getMessage());
                    return Uni.createFrom().item(false);
                })
                .flatMap(sent -> sent ? repo.markBroadcast(pool, hash) : Uni.createFrom().voidItem());
    }

    /** Broadcasts open transactions one after another, in the given (nonce) order. */
    public Uni<Void> broadcastAll(List<OpenTx> open) {
        return Multi.createFrom().iterable(open)
                .onItem().transformToUniAndConcatenate(tx -> broadcast(tx.nonce(), tx.hash(), tx.raw()))
                .collect().last().replaceWithVoid();
    }
}
