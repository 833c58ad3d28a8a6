package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.client.ChainUnavailableException;
import dev.agentpay.anchor.config.AnchorConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Type;

/** The start-up guard: the service anchors only on the configured chain, contract and signer. */
@ApplicationScoped
public class ChainGuard {

    @Inject
    AnchorConfig config;
    @Inject
    AnchorChainClient chain;
    @Inject
    AnchorContract contract;

    /**
     * The RPC must serve {@code expectedChainId}, a contract must exist at {@code contractAddress}, and its
     * signer must be {@code signerAddress}. Fails with the reason otherwise.
     */
    public Uni<Void> verify(long expectedChainId, String contractAddress, String signerAddress) {
        return chain.chainId()
                .onFailure(ChainUnavailableException.class).retry().withBackOff(Duration.ofMillis(500), Duration.ofSeconds(5))
                .expireIn(config.startupTimeout().toMillis())
                .invoke(id -> {
                    if (id != expectedChainId) {
                        throw new IllegalStateException("refusing to start: the anchor RPC serves chain id " + id
                                + " but anchor.chain-id is " + expectedChainId);
                    }
                })
                .chain(() -> chain.code(contractAddress))
                .invoke(code -> {
                    if (code == null || code.isBlank() || code.equals("0x")) {
                        throw new IllegalStateException("refusing to start: no contract at " + contractAddress);
                    }
                })
                .chain(() -> chain.ethCall(signerAddress, contractAddress, contract.encodeSignerCall()))
                .invoke(ret -> {
                    @SuppressWarnings({"rawtypes", "unchecked"})
                    List<Type> out = FunctionReturnDecoder.decode(ret, (List) List.of(new TypeReference<Address>() { }));
                    String onChain = out.isEmpty() ? "(none)" : out.get(0).getValue().toString();
                    if (!signerAddress.equalsIgnoreCase(onChain)) {
                        throw new IllegalStateException("refusing to start: the contract's signer is " + onChain
                                + " but the configured key is for " + signerAddress);
                    }
                })
                .replaceWithVoid();
    }
}
