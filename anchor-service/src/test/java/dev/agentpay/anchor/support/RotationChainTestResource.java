package dev.agentpay.anchor.support;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import java.util.HashMap;
import java.util.Map;

/**
 * The anchor network of the rotation test: the shared anvil of {@link AnchorChainTestResource}, but a
 * MandateAnchor contract of its own (signer: anvil's account #0), so that retiring account #0 on it leaves the
 * other tests' contract alone, and a next signer key (anvil's account #9, as the launcher configures it).
 */
public class RotationChainTestResource extends AnchorChainTestResource {

    /** anvil's account #9: the next signer (deploy/local ChainSetup.ANCHOR_NEXT_SIGNER_KEY). */
    public static final String NEXT_KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
    public static final String NEXT_ADDRESS = "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720";

    private static String rotationContract;

    /** The contract the rotation test anchors to (deployed once per JVM). */
    public static synchronized String rotationContract() {
        if (rotationContract == null) {
            rotationContract = deploy(new EvmRpc(anvil().rpcUrl()), DEPLOYER, AnvilNode.DEV_ADDRESS_0);
        }
        return rotationContract;
    }

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(super.start());
        config.put("anchor.contract-address", rotationContract());
        config.put("anchor.next-signer-key", NEXT_KEY);
        return config;
    }
}
