package dev.agentpay.settlement.client;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.rpc.JsonRpcHttp;
import dev.agentpay.settlement.watcher.domain.BlockRef;
import dev.agentpay.settlement.watcher.domain.EscrowLog;
import dev.agentpay.settlement.watcher.domain.Transfer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameter;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.EthBlock;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.utils.Numeric;

/**
 * One EVM chain's JSON-RPC endpoint: head, block hashes, and USDC {@code Transfer} logs, each call a
 * {@link Uni} (web3j's request and response types over the non-blocking {@link JsonRpcHttp}). Every
 * failure (transport or JSON-RPC error) surfaces as this client's {@link RpcException}, so the scanner can
 * shrink its range or retry on its next tick.
 */
public class EvmClient implements AutoCloseable {

    /** The watcher's chain clients' {@code User-Agent}. */
    public static final String USER_AGENT = "agentpay-settlement-watcher";

    /** {@code Transfer(address indexed from, address indexed to, uint256 value)}. */
    public static final String TRANSFER_TOPIC = EventEncoder.encode(new Event("Transfer", List.of(
            new TypeReference<Address>(true) {
            }, new TypeReference<Address>(true) {
            }, new TypeReference<Uint256>(false) {
            })));

    private final String chain;
    private final VertxWeb3jService service;
    private final Web3j web3j;

    public EvmClient(Vertx vertx, String chain, String rpcUrl, Duration timeout) {
        this.chain = chain;
        this.service = VertxWeb3jService.to(vertx, rpcUrl, timeout);
        this.web3j = Web3j.build(service);
    }

    public Uni<Long> head() {
        return send(web3j.ethBlockNumber()).map(r -> r.getBlockNumber().longValueExact());
    }

    /** The block at this height on the chain as the node sees it now, or {@code null} beyond its head. */
    public Uni<BlockRef> block(long number) {
        return send(web3j.ethGetBlockByNumber(DefaultBlockParameter.valueOf(BigInteger.valueOf(number)), false)).map(r -> {
            EthBlock.Block b = r.getBlock();
            return b == null ? null : new BlockRef(b.getNumber().longValueExact(), b.getHash());
        });
    }

    /**
     * Every {@code Transfer} log of {@code token} in {@code [from, toBlock]}, whoever the recipient: one
     * {@code eth_getLogs} per range, matched by the caller against its set of deposit addresses.
     */
    public Uni<List<Transfer>> transfers(String token, long fromBlock, long toBlock) {
        return logs(new EthFilter(DefaultBlockParameter.valueOf(BigInteger.valueOf(fromBlock)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(toBlock)), token)
                .addSingleTopic(TRANSFER_TOPIC));
    }

    /** {@code Transfer} logs of {@code token} to any of {@code recipients} in {@code [from, toBlock]} (back-fills). */
    public Uni<List<Transfer>> transfersTo(String token, List<String> recipients, long fromBlock, long toBlock) {
        return logs(new EthFilter(DefaultBlockParameter.valueOf(BigInteger.valueOf(fromBlock)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(toBlock)), token)
                .addSingleTopic(TRANSFER_TOPIC)
                .addNullTopic()
                .addOptionalTopics(recipients.stream().map(EvmClient::topicAddress).toArray(String[]::new)));
    }

    /**
     * Every event of the MandateEscrow {@code contract} in {@code [from, toBlock]} (one {@code eth_getLogs}, topic0
     * any of the contract's events), each with the escrow's totals read from the contract at the event's block.
     */
    public Uni<List<EscrowLog>> escrowLogs(String contract, long fromBlock, long toBlock) {
        EthFilter filter = new EthFilter(DefaultBlockParameter.valueOf(BigInteger.valueOf(fromBlock)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(toBlock)), contract)
                .addOptionalTopics(MandateEscrowAbi.topics().toArray(String[]::new));
        return send(web3j.ethGetLogs(filter)).flatMap(res -> {
            List<Uni<EscrowLog>> found = new ArrayList<>();
            for (EthLog.LogResult<?> r : res.getLogs()) {
                Log log = (Log) r.get();
                if (log.isRemoved()) {
                    continue;
                }
                MandateEscrowAbi.decode(log.getTopics(), log.getData()).ifPresent(ev -> found.add(
                        totals(contract, ev.escrowId(), log.getBlockNumber().longValueExact()).map(t -> new EscrowLog(chain,
                                log.getAddress().toLowerCase(Locale.ROOT), log.getTransactionHash(), log.getLogIndex().intValueExact(),
                                log.getBlockNumber().longValueExact(), log.getBlockHash(), ev.escrowId(), ev.mandateHash(), ev, t))));
            }
            // one after another: a chain's ticks keep one request in flight at a time
            Uni<List<EscrowLog>> all = Uni.createFrom().item(new ArrayList<>());
            for (Uni<EscrowLog> u : found) {
                all = all.flatMap(list -> u.map(l -> {
                    list.add(l);
                    return list;
                }));
            }
            return all;
        });
    }

    /** {@code totals(id)} of the escrow contract as of {@code block}. */
    public Uni<MandateEscrowAbi.Totals> totals(String contract, String escrowId, long block) {
        return send(web3j.ethCall(Transaction.createEthCallTransaction(null, contract, MandateEscrowAbi.totals(escrowId)),
                DefaultBlockParameter.valueOf(BigInteger.valueOf(block))))
                .map(r -> MandateEscrowAbi.decodeTotals(r.getValue()));
    }

    private Uni<List<Transfer>> logs(EthFilter filter) {
        return send(web3j.ethGetLogs(filter)).map(this::transfers);
    }

    private List<Transfer> transfers(EthLog res) {
        List<Transfer> out = new ArrayList<>();
        for (EthLog.LogResult<?> r : res.getLogs()) {
            Log log = (Log) r.get();
            if (log.isRemoved() || log.getTopics().size() < 3) {
                continue;
            }
            out.add(new Transfer(chain, log.getTransactionHash(), log.getLogIndex().intValueExact(),
                    log.getBlockNumber().longValueExact(), log.getBlockHash(),
                    address(log.getTopics().get(1)), address(log.getTopics().get(2)),
                    Numeric.toBigInt(log.getData()), log.getAddress().toLowerCase(Locale.ROOT), null));
        }
        return out;
    }

    static String topicAddress(String address) {
        return "0x" + "0".repeat(24) + Numeric.cleanHexPrefix(address).toLowerCase(Locale.ROOT);
    }

    static String address(String topic) {
        String hex = Numeric.cleanHexPrefix(topic);
        return "0x" + hex.substring(hex.length() - 40);
    }

    private <T extends Response<?>> Uni<T> send(Request<?, T> request) {
        return send(chain, service, request);
    }

    /**
     * Sends one web3j request on the non-blocking transport; a transport failure or a JSON-RPC error is an
     * {@link RpcException} naming the chain and the method.
     */
    public static <T extends Response<?>> Uni<T> send(String chain, VertxWeb3jService service, Request<?, T> request) {
        return service.call(request)
                .onFailure(e -> !(e instanceof RpcException))
                .transform(e -> new RpcException(chain + " " + request.getMethod() + ": " + JsonRpcHttp.describe(e), e))
                .map(res -> {
                    if (res.hasError()) {
                        throw new RpcException(chain + " " + request.getMethod() + ": " + res.getError().getCode() + " " + res.getError().getMessage());
                    }
                    return res;
                });
    }

    @Override
    public void close() {
        web3j.shutdown(); // closes the transport too
    }

    /** A failed JSON-RPC call. */
    public static class RpcException extends RuntimeException {
        public RpcException(String message) {
            super(message);
        }

        public RpcException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
