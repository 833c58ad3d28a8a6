package dev.agentpay.settlement.escrow.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.events.EscrowCommand;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.escrow.client.EscrowOperatorClient;
import dev.agentpay.settlement.escrow.domain.NewCommand;
import dev.agentpay.settlement.escrow.domain.OpenCommand;
import dev.agentpay.settlement.escrow.repository.EscrowCommandRepository;
import dev.agentpay.settlement.watcher.service.ChainLeases;
import dev.agentpay.settlement.watcher.service.SerialLanes;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * The MandateEscrow operator (issue 30): executes {@code escrow-commands} (release, freeze, resolve) on each EVM
 * chain's escrow, once per command id, by the instance holding the chain's lease (every record fenced with the
 * token the round started with), one command at a time per chain, oldest first.
 *
 * <p>A round: the chain's oldest open command. PENDING: a dry run ({@code eth_call} from the operator); a refusal by
 * the contract is final (FAILED, {@code escrow.command_failed} on escrow-events with the contract's error), except a
 * release whose ref was already used, which was paid before (DONE); else it is signed, recorded SENT with its raw
 * bytes, broadcast, and its receipt awaited. SENT: DONE once its receipt is at the chain's confirmation depth; a
 * revert puts it back to PENDING (the next dry run names the refusal); unmined, it is broadcast again (the same
 * bytes) every {@code rebroadcast-after}, and re-signed only when its nonce was taken by another transaction. Never
 * a double effect: the contract pays each release ref once, and freeze and resolve need the escrow's state. An RPC
 * or database fault fails the round, retried at the next one without limit (nothing is skipped).
 */
@ApplicationScoped
public class EscrowOperator {

    private static final Logger LOG = Logger.getLogger(EscrowOperator.class);
    private static final Duration RECEIPT_WAIT = Duration.ofSeconds(10);
    private static final Duration RECEIPT_POLL = Duration.ofMillis(200);

    @Inject
    ChainTable chains;

    @Inject
    SettlementConfig config;

    @Inject
    EscrowCommandRepository repo;

    @Inject
    Pool pool;

    @Inject
    Outbox outbox;

    @Inject
    ChainLeases chainLeases;

    @Inject
    Vertx vertx;

    @Inject
    MeterRegistry metrics;

    private final Map<Chain, EscrowOperatorClient> clients = new ConcurrentHashMap<>();
    private final SerialLanes<Chain> lanes = new SerialLanes<>();
    private final EscrowStalls stalls = new EscrowStalls();

    /** Which chains' rounds have been failing (for readiness). */
    public EscrowStalls stalls() {
        return stalls;
    }

    /** Whether this instance can execute commands on the chain at all (an escrow, an RPC URL and the operator key). */
    public boolean operable(ChainTable.Entry e) {
        return e.chain().kind() == Chain.Kind.EVM && e.enabled() && e.escrowAddress().isPresent() && e.rpcUrl().isPresent()
                && config.escrow().operatorPrivateKey().filter(k -> !k.isBlank()).isPresent();
    }

    /**
     * Records a received command once (emits whether it was new) and wakes its chain. A command for a chain with no
     * escrow here is FAILED at once, with its escrow.command_failed.
     */
    public Uni<Boolean> accept(NewCommand cmd) {
        Optional<Chain> chain = Chain.of(cmd.chain());
        Instant now = Instant.now();
        boolean operable = chain.isPresent() && operable(chains.get(chain.get()));
        return pool.withTransaction(tx -> repo.record(tx, cmd, now).flatMap(fresh -> {
            if (!fresh || operable) {
                return Uni.createFrom().item(fresh);
            }
            return fail(tx, cmd.commandId(), cmd.chain(), null, cmd.escrowId(), cmd.mandateHash(),
                    "no_escrow: chain " + cmd.chain() + " has no MandateEscrow operated here", now).replaceWith(true);
        })).invoke(fresh -> {
            if (fresh && operable) {
                wake(chain.get());
            }
        });
    }

    private void wake(Chain chain) {
        run(chain).subscribe().with(x -> { }, f -> { });
    }

    @Scheduled(every = "${settlement.escrow.interval:PT1S}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (!config.enabled()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> rounds = new ArrayList<>();
        for (ChainTable.Entry e : chains.all()) {
            if (operable(e)) {
                rounds.add(run(e.chain()).replaceWithVoid());
            }
        }
        return rounds.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(rounds).andFailFast().replaceWithVoid();
    }

    /** Rounds of a chain one after another until it has nothing more to do now; failures logged and retried later. */
    public Uni<String> run(Chain chain) {
        return lanes.run(chain, () -> round(chain)).invoke(x -> stalls.succeeded(chain.value())).onFailure().recoverWithItem(ex -> {
            stalls.failed(chain.value(), String.valueOf(ex.getMessage()), Instant.now());
            metrics.counter("escrow.command.rounds.failed", "chain", chain.value()).increment();
            LOG.warnf("%s: escrow command round failed, retried: %s", chain.value(), ex.getMessage());
            return "retry";
        });
    }

    /** One step on the chain's oldest open command; emits what happened. */
    public Uni<String> round(Chain chain) {
        ChainTable.Entry e = chains.get(chain);
        if (!operable(e)) {
            return Uni.createFrom().item("off");
        }
        long token = chainLeases.token(e.name());
        if (token < 0) {
            return Uni.createFrom().item("not_this_instance");
        }
        EscrowOperatorClient rpc = client(e);
        String escrow = e.escrowAddress().orElseThrow();
        return repo.oldestOpen(pool, e.name()).flatMap(open -> {
            if (open.isEmpty()) {
                return Uni.createFrom().item("idle");
            }
            OpenCommand c = open.get(0);
            return "PENDING".equals(c.state()) ? send(e, rpc, escrow, token, c) : settle(e, rpc, escrow, token, c);
        });
    }

    private Uni<String> send(ChainTable.Entry e, EscrowOperatorClient rpc, String escrow, long token, OpenCommand c) {
        return rpc.dryRun(escrow, c.calldata()).flatMap(refused -> {
            if (refused.isPresent()) {
                String error = refused.get().error();
                if (EscrowCommand.RELEASE.equals(c.type()) && "RefUsed".equals(error)) {
                    // paid before (this command's earlier transaction, or the same ref): nothing more to do
                    return chainLeases.fenced(e.name(), token, tx -> repo.finish(tx, c.commandId(), "DONE", null,
                            "ref already used on chain", Instant.now())).invoke(x -> count(e, "already_done")).replaceWith("done");
                }
                return chainLeases.fenced(e.name(), token, tx -> repo.finish(tx, c.commandId(), "FAILED", null, error, Instant.now())
                        .flatMap(moved -> moved ? fail(tx, c.commandId(), e.name(), escrow, c.escrowId(), c.mandateHash(),
                                error + (refused.get().detail() == null ? "" : ": " + refused.get().detail()), Instant.now())
                                : Uni.createFrom().voidItem()))
                        .invoke(x -> {
                            count(e, "failed");
                            LOG.warnf("%s: escrow command %s (%s) refused by the contract: %s", e.name(), c.commandId(), c.type(), error);
                        }).replaceWith("failed");
            }
            return rpc.sign(escrow, c.calldata()).flatMap(signed -> chainLeases.fenced(e.name(), token,
                            tx -> repo.sent(tx, c.commandId(), signed.txHash(), signed.nonce(), signed.raw(), Instant.now()))
                    .invoke(() -> LOG.infof("%s: escrow command %s (%s) sent as %s", e.name(), c.commandId(), c.type(), signed.txHash()))
                    .flatMap(x -> rpc.broadcast(signed.raw()).onItemOrFailure().transformToUni((ok, ex) -> {
                        if (ex != null) {
                            // recorded SENT: the next rounds broadcast the same bytes again
                            LOG.warnf("%s: broadcasting escrow command %s failed (broadcast again later): %s", e.name(), c.commandId(), ex.getMessage());
                            return Uni.createFrom().item("sent");
                        }
                        return receiptWithin(rpc, signed.txHash()).flatMap(r -> r.isPresent()
                                ? onReceipt(e, token, c.commandId(), r.get(), rpc)
                                : Uni.createFrom().item("sent"));
                    })));
        });
    }

    private Uni<String> settle(ChainTable.Entry e, EscrowOperatorClient rpc, String escrow, long token, OpenCommand c) {
        return rpc.receipt(c.txHash()).flatMap(receipt -> {
            if (receipt.isPresent()) {
                return onReceipt(e, token, c.commandId(), receipt.get(), rpc);
            }
            if (c.sentAt() != null && Duration.between(c.sentAt(), Instant.now()).compareTo(config.escrow().rebroadcastAfter()) < 0) {
                return Uni.createFrom().item("sent");
            }
            return rpc.minedNonce().flatMap(mined -> {
                if (c.nonce() != null && mined > c.nonce() || c.attempts() >= config.escrow().maxBroadcasts()) {
                    // its nonce went to another transaction (or it never got mined): sign it afresh after a new dry run
                    return chainLeases.fenced(e.name(), token, tx -> repo.reopen(tx, c.commandId(),
                            "not mined (nonce " + c.nonce() + ", operator's mined count " + mined + ")", Instant.now())).replaceWith("reopened");
                }
                return rpc.broadcast(c.rawTx()).map(x -> (String) null)
                        .onFailure(EvmClient.RpcException.class).recoverWithItem(Throwable::getMessage)
                        .flatMap(error -> chainLeases.fenced(e.name(), token, tx -> repo.rebroadcast(tx, c.commandId(), error, Instant.now())))
                        .replaceWith("rebroadcast");
            });
        });
    }

    /** Mined: DONE at the chain's confirmation depth (else checked again next round); reverted: back to PENDING. */
    private Uni<String> onReceipt(ChainTable.Entry e, long token, String commandId, TransactionReceipt r, EscrowOperatorClient rpc) {
        if (!r.isStatusOK()) {
            return chainLeases.fenced(e.name(), token, tx -> repo.reopen(tx, commandId, "reverted in block " + r.getBlockNumber(), Instant.now()))
                    .replaceWith("reverted");
        }
        return rpc.head().flatMap(head -> {
            if (head - r.getBlockNumber().longValueExact() + 1 < e.confirmations()) {
                return Uni.createFrom().item("sent");
            }
            return chainLeases.fenced(e.name(), token, tx -> repo.finish(tx, commandId, "DONE", r.getTransactionHash(), null, Instant.now()))
                    .invoke(x -> count(e, "done")).replaceWith("done");
        });
    }

    private Uni<Void> fail(SqlClient tx, String commandId, String chain, String contract, String escrowId, String mandateHash,
            String reason, Instant now) {
        EscrowEvent ev = new EscrowEvent(EventHeader.of(EscrowEvent.COMMAND_FAILED, mandateHash, null, now, EscrowEvent.SCHEMA_VERSION),
                chain, contract == null ? null : contract.toLowerCase(java.util.Locale.ROOT), escrowId, mandateHash, null, null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, commandId, reason, null);
        return outbox.append(tx, ev).replaceWithVoid();
    }

    private static Uni<Optional<TransactionReceipt>> receiptWithin(EscrowOperatorClient rpc, String txHash) {
        return rpc.receipt(txHash).repeat().withDelay(RECEIPT_POLL).whilst(Optional::isEmpty)
                .select().first(RECEIPT_WAIT)
                .collect().last()
                .map(last -> last == null ? Optional.<TransactionReceipt>empty() : last);
    }

    private void count(ChainTable.Entry e, String outcome) {
        metrics.counter("escrow.commands", "chain", e.name(), "outcome", outcome).increment();
    }

    private EscrowOperatorClient client(ChainTable.Entry e) {
        return clients.computeIfAbsent(e.chain(), c -> new EscrowOperatorClient(vertx, e.name(), e.rpcUrl().orElseThrow(),
                Long.parseLong(e.networkId()), config.escrow().operatorPrivateKey().orElseThrow(), config.evm().rpcTimeout()));
    }

    void onStop(@Observes ShutdownEvent ev) {
        clients.values().forEach(EscrowOperatorClient::close);
    }
}
