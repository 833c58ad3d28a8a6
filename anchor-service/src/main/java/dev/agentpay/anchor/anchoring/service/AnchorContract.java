package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.config.AnchorConfig;
import dev.agentpay.anchor.contract.MandateAnchor;
import dev.agentpay.anchor.anchoring.domain.PendingItem;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.web3j.abi.EventEncoder;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.protocol.core.methods.response.TransactionReceipt;
import org.web3j.tx.ReadonlyTransactionManager;
import org.web3j.tx.gas.DefaultGasProvider;
import org.web3j.utils.Numeric;

/** ABI side of the generated {@link MandateAnchor} wrapper: encodes anchor calls and decodes their logs. */
@ApplicationScoped
public class AnchorContract {

    static final String EVENT_TOPIC = EventEncoder.encode(MandateAnchor.MANDATEANCHORED_EVENT);

    @Inject
    AnchorConfig config;

    @Inject
    AnchorChainClient chain;

    @Inject
    AnchorSigner signer;

    private MandateAnchor contract;

    @PostConstruct
    void init() {
        // read-only manager: this instance only encodes calls; sending is done with our own nonce and fees
        contract = MandateAnchor.load(config.contractAddress(), chain.web3j(),
                new ReadonlyTransactionManager(chain.web3j(), signer.address()), new DefaultGasProvider());
    }

    /** Calldata of {@code anchorBatch(hashes, states)} in the items' order. */
    public String encodeBatch(List<PendingItem> items) {
        List<byte[]> hashes = new ArrayList<>(items.size());
        List<String> states = new ArrayList<>(items.size());
        for (PendingItem i : items) {
            hashes.add(Numeric.hexStringToByteArray(i.mandateHash()));
            states.add(i.state());
        }
        return contract.anchorBatch(hashes, states).encodeFunctionCall();
    }

    /** Calldata of {@code signer()}. */
    public String encodeSignerCall() {
        return contract.signer().encodeFunctionCall();
    }

    /** The receipt's MandateAnchored logs emitted by our contract, in log order. */
    public List<Anchored> anchoredLogs(TransactionReceipt receipt) {
        List<Anchored> out = new ArrayList<>();
        for (Log log : receipt.getLogs()) {
            if (!config.contractAddress().equalsIgnoreCase(log.getAddress()) || log.getTopics().isEmpty()
                    || !EVENT_TOPIC.equalsIgnoreCase(log.getTopics().get(0))) {
                continue;
            }
            MandateAnchor.MandateAnchoredEventResponse e = MandateAnchor.getMandateAnchoredEventFromLog(log);
            out.add(new Anchored(Numeric.toHexString(e.mandateHash), e.state, e.sender, log.getLogIndex().intValueExact()));
        }
        return out;
    }

    /** One decoded MandateAnchored log. */
    public record Anchored(String mandateHash, String state, String sender, int logIndex) {
    }
}
