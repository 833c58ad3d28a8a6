package dev.agentpay.settlement.sweep.client;

import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.client.SigningEvmClient;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.math.BigInteger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.DynamicArray;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.crypto.Hash;
import org.web3j.protocol.core.DefaultBlockParameterName;
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
public class SweepChainClient extends SigningEvmClient {

    /** {@code Swept(bytes32 indexed salt, address indexed deposit, address indexed token, uint256 amount)}. */
    public static final String SWEPT_TOPIC = Hash.sha3String("Swept(bytes32,address,address,uint256)");

    public SweepChainClient(Vertx vertx, String chain, String rpcUrl, long chainId, String privateKey, Duration timeout) {
        super(vertx, chain, rpcUrl, chainId, privateKey, timeout);
    }

    /** The sweeper's address (pays the gas). */
    public String sweeperAddress() {
        return signer.getAddress();
    }

    /** {@code factory.depositAddress(salt)} as the contract computes it (lower case). */
    public Uni<String> depositAddress(String factory, byte[] salt) {
        String data = FunctionEncoder.encode(new Function("depositAddress", List.of(new Bytes32(salt)), List.of()));
        return send(web3j.ethCall(Transaction.createEthCallTransaction(signer.getAddress(), factory, data),
                DefaultBlockParameterName.LATEST))
                .map(r -> "0x" + Numeric.cleanHexPrefix(r.getValue()).substring(24).toLowerCase(Locale.ROOT));
    }

    /** Signs {@code factory.sweep(token, salts)} with the next nonce, an estimated gas limit (+25 %) and the current gas price. */
    public Uni<Signed> signSweep(String factory, String token, List<byte[]> salts) {
        String data = FunctionEncoder.encode(new Function("sweep", List.of(new Address(token),
                new DynamicArray<>(Bytes32.class, salts.stream().map(Bytes32::new).toList())), List.of()));
        return signCall(factory, data);
    }

    /** The chain's latest block number. */
    public Uni<Long> blockNumber() {
        return send(web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
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
}
