package dev.agentpay.anchor.support;

import dev.agentpay.anchor.contract.MandateAnchor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.web3j.abi.EventEncoder;
import org.web3j.protocol.Web3j;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.response.EthLog;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.protocol.http.HttpService;

/** Reads the anchor chain directly (not through the service): receipts and MandateAnchored logs, decoded by the wrapper. */
public final class ChainView {

    private static Web3j web3j;

    private ChainView() {
    }

    public static synchronized Web3j web3j() {
        if (web3j == null) {
            web3j = Web3j.build(new HttpService(AnchorChainTestResource.anvil().rpcUrl()));
        }
        return web3j;
    }

    public static TransactionReceipt receipt(String txHash) {
        try {
            return web3j().ethGetTransactionReceipt(txHash).send().getTransactionReceipt().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The receipt's log with this index, decoded as MandateAnchored. */
    public static MandateAnchor.MandateAnchoredEventResponse anchoredLog(String txHash, int logIndex) {
        Log log = receipt(txHash).getLogs().stream().filter(l -> l.getLogIndex().intValue() == logIndex).findFirst().orElseThrow();
        return MandateAnchor.getMandateAnchoredEventFromLog(log);
    }

    /** Every MandateAnchored log ever emitted by {@code contract} for this mandate hash. */
    public static List<Log> logsFor(String contract, String mandateHash) {
        EthFilter f = new EthFilter(DefaultBlockParameterName.EARLIEST, DefaultBlockParameterName.LATEST, contract);
        f.addSingleTopic(EventEncoder.encode(MandateAnchor.MANDATEANCHORED_EVENT));
        f.addSingleTopic(mandateHash);
        try {
            EthLog res = web3j().ethGetLogs(f).send();
            if (res.hasError()) {
                throw new IllegalStateException(res.getError().getMessage());
            }
            return res.getLogs().stream().map(r -> (Log) r.get()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static long transactionCount(String address) {
        try {
            return web3j().ethGetTransactionCount(address, DefaultBlockParameterName.LATEST).send().getTransactionCount().longValueExact();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
