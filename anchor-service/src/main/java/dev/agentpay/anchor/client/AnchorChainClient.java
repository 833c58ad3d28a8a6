package dev.agentpay.anchor.client;

import dev.agentpay.anchor.config.AnchorConfig;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;

/**
 * The one gateway to the anchor network's JSON-RPC (web3j): owns the HTTP client and its timeouts,
 * retries connection failures with exponential back-off, and maps failures to
 * {@link ChainUnavailableException} (transient) or {@link ChainRejectedException} (the node said no).
 */
@ApplicationScoped
public class AnchorChainClient {

    @Inject
    AnchorConfig config;

    private Web3j web3j;
    private OkHttpClient http;

    @PostConstruct
    void init() {
        http = new OkHttpClient.Builder()
                .connectTimeout(config.rpc().timeout())
                .readTimeout(config.rpc().timeout())
                .callTimeout(config.rpc().timeout())
                .retryOnConnectionFailure(false)
                .build();
        web3j = Web3j.build(new HttpService(config.rpcUrl(), http));
    }

    @PreDestroy
    void close() {
        web3j.shutdown();
    }

    /** The raw web3j client, for the contract wrapper's read-only use (encoding, decoding). */
    public Web3j web3j() {
        return web3j;
    }

    public Uni<Long> chainId() {
        return call("eth_chainId", () -> web3j.ethChainId()).map(r -> r.getChainId().longValueExact());
    }

    public Uni<Long> blockNumber() {
        return call("eth_blockNumber", () -> web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
    }

    /** Base fee of the latest block (EIP-1559). */
    public Uni<BigInteger> latestBaseFee() {
        return call("eth_getBlockByNumber", () -> web3j.ethGetBlockByNumber(DefaultBlockParameterName.LATEST, false))
                .map(r -> {
                    if (r.getBlock() == null || r.getBlock().getBaseFeePerGasRaw() == null) {
                        throw new ChainRejectedException("eth_getBlockByNumber", 0, "latest block has no base fee (pre-London chain?)");
                    }
                    return r.getBlock().getBaseFeePerGas();
                });
    }

    /** Transactions sent by {@code address} as of the latest block ({@code latest}) or including the pool ({@code pending}). */
    public Uni<Long> transactionCount(String address, boolean pending) {
        DefaultBlockParameterName at = pending ? DefaultBlockParameterName.PENDING : DefaultBlockParameterName.LATEST;
        return call("eth_getTransactionCount", () -> web3j.ethGetTransactionCount(address, at))
                .map(r -> r.getTransactionCount().longValueExact());
    }

    public Uni<BigInteger> estimateGas(String from, String to, String data) {
        return call("eth_estimateGas", () -> web3j.ethEstimateGas(
                Transaction.createEthCallTransaction(from, to, data))).map(r -> r.getAmountUsed());
    }

    public Uni<String> ethCall(String from, String to, String data) {
        return call("eth_call", () -> web3j.ethCall(Transaction.createEthCallTransaction(from, to, data),
                DefaultBlockParameterName.LATEST)).map(r -> r.getValue());
    }

    public Uni<String> code(String address) {
        return call("eth_getCode", () -> web3j.ethGetCode(address, DefaultBlockParameterName.LATEST)).map(r -> r.getCode());
    }

    /**
     * Broadcasts signed bytes. Broadcasting the same bytes twice is harmless, so connection failures
     * are retried like any read.
     */
    public Uni<String> sendRawTransaction(String rawHex) {
        return call("eth_sendRawTransaction", () -> web3j.ethSendRawTransaction(rawHex)).map(r -> r.getTransactionHash());
    }

    /** Whether the node knows the transaction at all (pending or mined); the hash of a replaced or dropped one is unknown. */
    public Uni<Boolean> knows(String txHash) {
        return call("eth_getTransactionByHash", () -> web3j.ethGetTransactionByHash(txHash)).map(r -> r.getTransaction().isPresent());
    }

    public Uni<Optional<TransactionReceipt>> receipt(String txHash) {
        return call("eth_getTransactionReceipt", () -> web3j.ethGetTransactionReceipt(txHash)).map(r -> r.getTransactionReceipt());
    }

    private <R extends Response<?>> Uni<R> call(String method, Supplier<Request<?, R>> request) {
        return Uni.createFrom().<R>completionStage(() -> request.get().sendAsync())
                .onFailure().transform(e -> mapFailure(method, e))
                .flatMap(r -> r.hasError()
                        ? Uni.createFrom().<R>failure(new ChainRejectedException(method, r.getError().getCode(), r.getError().getMessage()))
                        : Uni.createFrom().item(r))
                .onFailure(ChainUnavailableException.class).retry()
                .withBackOff(config.rpc().initialBackoff(), config.rpc().maxBackoff()).withJitter(0.2)
                .atMost(config.rpc().retries());
    }

    private static Throwable mapFailure(String method, Throwable e) {
        Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (t instanceof ChainRejectedException || t instanceof ChainUnavailableException) {
            return t;
        }
        if (t instanceof IOException || t instanceof TimeoutException) {
            return new ChainUnavailableException(method, t);
        }
        // web3j wraps transport failures in RuntimeExceptions in places; anything unexpected is treated as transient
        return new ChainUnavailableException(method, t);
    }
}
