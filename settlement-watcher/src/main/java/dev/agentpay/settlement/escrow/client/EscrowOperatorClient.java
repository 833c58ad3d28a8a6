package dev.agentpay.settlement.escrow.client;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.client.SigningEvmClient;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.Transaction;

/**
 * One chain's side of the escrow operator, through web3j on the watcher's non-blocking transport: a dry run of an
 * operator call ({@code eth_call} from the operator: the contract's refusal, by its custom error, before anything is
 * signed), signing with the operator key, broadcasting, receipts. Transport and node failures surface as
 * {@link EvmClient.RpcException} (transient: retried); a refusal by the contract as {@link Refused}.
 */
public class EscrowOperatorClient extends SigningEvmClient {

    /** The contract refused the call: {@code error} is its custom error's name (or the node's message). */
    public record Refused(String error, String detail) {
    }

    public EscrowOperatorClient(Vertx vertx, String chain, String rpcUrl, long chainId, String privateKey, Duration timeout) {
        super(vertx, chain, rpcUrl, chainId, privateKey, timeout);
    }

    public String operatorAddress() {
        return signer.getAddress();
    }

    /**
     * Runs {@code data} against {@code contract} from the operator at the latest block: empty when it would succeed,
     * the refusal when the contract reverts. An RPC failure fails the Uni ({@link EvmClient.RpcException}).
     */
    public Uni<Optional<Refused>> dryRun(String contract, String data) {
        return service.call(web3j.ethCall(Transaction.createEthCallTransaction(signer.getAddress(), contract, data),
                        DefaultBlockParameterName.LATEST))
                .onFailure().transform(e -> e instanceof EvmClient.RpcException ? e
                        : new EvmClient.RpcException(chain + " eth_call: " + e.getMessage(), e))
                .map(r -> {
                    if (r.hasError()) {
                        String revert = r.getError().getData() == null ? null : r.getError().getData().toString().replace("\"", "");
                        Optional<String> name = MandateEscrowAbi.errorName(revert);
                        String msg = r.getError().getMessage() == null ? "" : r.getError().getMessage();
                        if (name.isPresent() || msg.toLowerCase(Locale.ROOT).contains("revert")) {
                            return Optional.of(new Refused(name.orElse("reverted"), msg));
                        }
                        throw new EvmClient.RpcException(chain + " eth_call: " + r.getError().getCode() + " " + msg);
                    }
                    if (r.isReverted()) {
                        Optional<String> name = MandateEscrowAbi.errorName(r.getValue());
                        return Optional.of(new Refused(name.orElse("reverted"), r.getRevertReason()));
                    }
                    return Optional.<Refused>empty();
                });
    }

    /** Signs {@code data} to {@code contract} with the next nonce, an estimated gas limit (+25 %) and the current gas price. */
    public Uni<Signed> sign(String contract, String data) {
        return signCall(contract, data);
    }

    /** The chain's latest block number. */
    public Uni<Long> head() {
        return send(web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
    }

    /** The operator's transaction count at the latest block (what is mined). */
    public Uni<Long> minedNonce() {
        return send(web3j.ethGetTransactionCount(signer.getAddress(), DefaultBlockParameterName.LATEST))
                .map(r -> r.getTransactionCount().longValueExact());
    }
}
