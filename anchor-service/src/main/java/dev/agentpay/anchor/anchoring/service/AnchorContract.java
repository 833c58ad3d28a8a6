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
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
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

    /** Calldata of {@code isSigner(address)}. */
    public String encodeIsSigner(String address) {
        return FunctionEncoder.encode(new Function("isSigner", List.of(new Address(address)), List.of()));
    }

    /** Calldata of {@code signer()}: contracts deployed before rotation had one immutable signer. */
    public String encodeLegacySigner() {
        return FunctionEncoder.encode(new Function("signer", List.of(), List.of()));
    }

    /** Calldata of {@code addSigner(next)}: the outgoing signer authorises the incoming one. */
    public String encodeAddSigner(String next) {
        return FunctionEncoder.encode(new Function("addSigner", List.of(new Address(next)), List.of()));
    }

    /** Calldata of {@code removeSigner(old)}: the incoming signer ends the outgoing one's authorisation. */
    public String encodeRemoveSigner(String old) {
        return FunctionEncoder.encode(new Function("removeSigner", List.of(new Address(old)), List.of()));
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
