package dev.agentpay.settlement.sweep.client;

import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.client.VertxWeb3jService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.math.BigInteger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.utils.Numeric;

/**
 * One chain's side of sweeping, through web3j: signing {@code DepositFactory.sweep(token, salts)} with
 * the sweeper key, broadcasting it, reading its receipt and the factory's {@code Swept} events; each call
 * a {@link Uni} on the watcher's non-blocking transport. Every failure surfaces as the EVM client's
 * {@link EvmClient.RpcException} (the same chain's JSON-RPC); the sweeper decides what to retry.
 */
public class SweepChainClient implements AutoCloseable {

    /** {@code Swept(bytes32 indexed salt, address indexed deposit, address indexed token, uint256 amount)}. */
    public static final String SWEPT_TOPIC = Hash.sha3String("Swept(bytes32,address,address,uint256)");

    private final String chain;
    private final VertxWeb3jService service;
    private final Web3j web3j;
    private final Credentials sweeper;
    private final long chainId;

    public SweepChainClient(Vertx vertx, String chain, String rpcUrl, long chainId, String privateKey, Duration timeout) {
        this.chain = chain;
        this.chainId = chainId;
        this.sweeper = Credentials.create(privateKey);
        this.service = VertxWeb3jService.to(vertx, rpcUrl, timeout);
        this.web3j = Web3j.build(service);
    }

    /** The sweeper's address (pays the gas). */
    public String sweeperAddress() {
        return sweeper.getAddress();
    }

    /** {@code factory.depositAddress(salt)} as the contract computes it (lower case). */
    public Uni<String> depositAddress(String factory, byte[] salt) {
        String data = FunctionEncoder.encode(new Function("depositAddress", List.of(new Bytes32(salt)), List.of()));
        return send(web3j.ethCall(Transaction.createEthCallTransaction(sweeper.getAddress(), factory, data),
                DefaultBlockParameterName.LATEST))
                .map(r -> "0x" + Numeric.cleanHexPrefix(r.getValue()).substring(24).toLowerCase(Locale.ROOT));
    }

    /** A signed sweep transaction: its hash, nonce and raw bytes (nothing is sent yet). */
    public record Signed(String txHash, long nonce, String raw) {
    }

    /** Signs {@code factory.sweep(token, salts)} with the next nonce, an estimated gas limit (+25 %) and the current gas price. */
    public Uni<Signed> signSweep(String factory, String token, List<byte[]> salts) {
        String data = FunctionEncoder.encode(new Function("sweep", List.of(new Address(token),
                new DynamicArray<>(Bytes32.class, salts.stream().map(Bytes32::new).toList())), List.of()));
        return send(web3j.ethGetTransactionCount(sweeper.getAddress(), DefaultBlockParameterName.PENDING)).map(r -> r.getTransactionCount())
                .flatMap(nonce -> send(web3j.ethGasPrice()).map(r -> r.getGasPrice())
                .flatMap(gasPrice -> send(web3j.ethEstimateGas(Transaction.createFunctionCallTransaction(sweeper.getAddress(), nonce,
                        gasPrice, null, factory, data))).map(estimate -> {
                    BigInteger gasLimit = estimate.getAmountUsed().multiply(BigInteger.valueOf(5)).divide(BigInteger.valueOf(4));
                    RawTransaction tx = RawTransaction.createTransaction(nonce, gasPrice, gasLimit, factory, data);
                    byte[] signed = TransactionEncoder.signMessage(tx, chainId, sweeper);
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

    /** The chain's latest block number. */
    public Uni<Long> blockNumber() {
        return send(web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
    }

    /** The receipt, once mined. */
    public Uni<Optional<TransactionReceipt>> receipt(String txHash) {
        return send(web3j.ethGetTransactionReceipt(txHash)).map(r -> r.getTransactionReceipt());
    }

    /** What each deposit address handed to the treasury in this receipt (the factory's Swept events), lower-case keys. */
    public static Map<String, BigInteger> swept(TransactionReceipt receipt, String factory) {
        Map<String, BigInteger> out = new LinkedHashMap<>();
        for (Log log : receipt.getLogs()) {
            if (log.getAddress().equalsIgnoreCase(factory) && log.getTopics().size() == 4
                    && log.getTopics().get(0).equalsIgnoreCase(SWEPT_TOPIC)) {
                String deposit = "0x" + Numeric.cleanHexPrefix(log.getTopics().get(2)).substring(24).toLowerCase(Locale.ROOT);
                out.merge(deposit, Numeric.toBigInt(log.getData()), BigInteger::add);
            }
        }
        return out;
    }

    private <T extends Response<?>> Uni<T> send(Request<?, T> request) {
        return EvmClient.send(chain, service, request);
    }

    @Override
    public void close() {
        web3j.shutdown();
    }
}
