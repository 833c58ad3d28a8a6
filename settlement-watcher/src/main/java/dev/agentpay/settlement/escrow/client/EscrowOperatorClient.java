package dev.agentpay.settlement.escrow.client;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.client.VertxWeb3jService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * One chain's side of the escrow operator, through web3j on the watcher's non-blocking transport: a dry run of an
 * operator call ({@code eth_call} from the operator: the contract's refusal, by its custom error, before anything is
 * signed), signing with the operator key, broadcasting, receipts. Transport and node failures surface as
 * {@link EvmClient.RpcException} (transient: retried); a refusal by the contract as {@link Refused}.
 */
public class EscrowOperatorClient implements AutoCloseable {

    /** The contract refused the call: {@code error} is its custom error's name (or the node's message). */
    public record Refused(String error, String detail) {
    }

    /** A signed transaction: hash, nonce and raw bytes (nothing sent yet). */
    public record Signed(String txHash, long nonce, String raw) {
    }

    private final String chain;
    private final VertxWeb3jService service;
    private final Web3j web3j;
    private final Credentials operator;
    private final long chainId;

    public EscrowOperatorClient(Vertx vertx, String chain, String rpcUrl, long chainId, String privateKey, Duration timeout) {
        this.chain = chain;
        this.chainId = chainId;
        this.operator = Credentials.create(privateKey);
        this.service = VertxWeb3jService.to(vertx, rpcUrl, timeout);
        this.web3j = Web3j.build(service);
    }

    public String operatorAddress() {
        return operator.getAddress();
    }

    /**
     * Runs {@code data} against {@code contract} from the operator at the latest block: empty when it would succeed,
     * the refusal when the contract reverts. An RPC failure fails the Uni ({@link EvmClient.RpcException}).
     */
    public Uni<Optional<Refused>> dryRun(String contract, String data) {
        return service.call(web3j.ethCall(Transaction.createEthCallTransaction(operator.getAddress(), contract, data),
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
        return send(web3j.ethGetTransactionCount(operator.getAddress(), DefaultBlockParameterName.PENDING)).map(r -> r.getTransactionCount())
                .flatMap(nonce -> send(web3j.ethGasPrice()).map(r -> r.getGasPrice())
                .flatMap(gasPrice -> send(web3j.ethEstimateGas(Transaction.createFunctionCallTransaction(operator.getAddress(), nonce,
                        gasPrice, null, contract, data))).map(estimate -> {
                    BigInteger gasLimit = estimate.getAmountUsed().multiply(BigInteger.valueOf(5)).divide(BigInteger.valueOf(4));
                    RawTransaction tx = RawTransaction.createTransaction(nonce, gasPrice, gasLimit, contract, data);
                    byte[] signed = TransactionEncoder.signMessage(tx, chainId, operator);
                    return new Signed(Numeric.toHexString(Hash.sha3(signed)), nonce.longValueExact(), Numeric.toHexString(signed));
                })));
    }

    /** Broadcasts a signed transaction; a node that already knows it is not an error. */
    public Uni<Void> broadcast(String raw) {
        return send(web3j.ethSendRawTransaction(raw)).replaceWithVoid()
                .onFailure(EvmClient.RpcException.class).recoverWithUni(e -> {
                    String m = e.getMessage().toLowerCase(Locale.ROOT);
                    return m.contains("already known") || m.contains("already imported")
                            ? Uni.createFrom().voidItem() : Uni.createFrom().failure(e);
                });
    }

    /** The receipt, once mined. */
    public Uni<Optional<TransactionReceipt>> receipt(String txHash) {
        return send(web3j.ethGetTransactionReceipt(txHash)).map(r -> r.getTransactionReceipt());
    }

    /** The chain's latest block number. */
    public Uni<Long> head() {
        return send(web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
    }

    /** The operator's transaction count at the latest block (what is mined). */
    public Uni<Long> minedNonce() {
        return send(web3j.ethGetTransactionCount(operator.getAddress(), DefaultBlockParameterName.LATEST))
                .map(r -> r.getTransactionCount().longValueExact());
    }

    private <T extends Response<?>> Uni<T> send(Request<?, T> request) {
        return EvmClient.send(chain, service, request);
    }

    @Override
    public void close() {
        web3j.shutdown();
    }
}
