package dev.agentpay.settlement.client;

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
 * One chain, through web3j on the watcher's non-blocking transport, with a key of the watcher's that sends
 * transactions (the escrow operator, the sweeper): signing a contract call, broadcasting it, its receipt. Every
 * failure surfaces as {@link EvmClient.RpcException} (the same chain's JSON-RPC).
 */
public abstract class SigningEvmClient implements AutoCloseable {

    /** A signed transaction: its hash, nonce and raw bytes (nothing is sent yet). */
    public record Signed(String txHash, long nonce, String raw) {
    }

    protected final String chain;
    protected final VertxWeb3jService service;
    protected final Web3j web3j;
    protected final Credentials signer;
    private final long chainId;

    protected SigningEvmClient(Vertx vertx, String chain, String rpcUrl, long chainId, String privateKey, Duration timeout) {
        this.chain = chain;
        this.chainId = chainId;
        this.signer = Credentials.create(privateKey);
        this.service = VertxWeb3jService.to(vertx, rpcUrl, timeout);
        this.web3j = Web3j.build(service);
    }

    /** Signs {@code data} to {@code contract} with the next nonce, an estimated gas limit (+25 %) and the current gas price. */
    protected Uni<Signed> signCall(String contract, String data) {
        return send(web3j.ethGetTransactionCount(signer.getAddress(), DefaultBlockParameterName.PENDING)).map(r -> r.getTransactionCount())
                .flatMap(nonce -> send(web3j.ethGasPrice()).map(r -> r.getGasPrice())
                .flatMap(gasPrice -> send(web3j.ethEstimateGas(Transaction.createFunctionCallTransaction(signer.getAddress(), nonce,
                        gasPrice, null, contract, data))).map(estimate -> {
                    BigInteger gasLimit = estimate.getAmountUsed().multiply(BigInteger.valueOf(5)).divide(BigInteger.valueOf(4));
                    RawTransaction tx = RawTransaction.createTransaction(nonce, gasPrice, gasLimit, contract, data);
                    byte[] signed = TransactionEncoder.signMessage(tx, chainId, signer);
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

    protected <T extends Response<?>> Uni<T> send(Request<?, T> request) {
        return EvmClient.send(chain, service, request);
    }

    @Override
    public void close() {
        web3j.shutdown();
    }
}
