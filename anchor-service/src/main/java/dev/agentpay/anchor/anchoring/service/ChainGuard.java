package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.client.ChainUnavailableException;
import dev.agentpay.anchor.config.AnchorConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
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
     * Whether {@code signerAddress} may anchor on the contract now: {@code "yes"}, or what the contract says
     * instead. The contract's {@code isSigner(address)}; a contract deployed before rotation (one immutable
     * {@code signer()}, no {@code isSigner}) is asked for its signer.
     */
    public Uni<String> authorised(String signerAddress, String contractAddress) {
        return chain.ethCall(signerAddress, contractAddress, contract.encodeIsSigner(signerAddress))
                .map(ret -> {
                    if (ret == null || ret.length() < 66) {
                        throw new IllegalStateException("no isSigner");
                    }
                    return new BigInteger(ret.substring(2), 16).signum() != 0 ? "yes" : "isSigner(" + signerAddress + ") is false";
                })
                .onFailure(e -> !(e instanceof ChainUnavailableException)).recoverWithUni(e -> chain.ethCall(signerAddress, contractAddress,
                        contract.encodeLegacySigner()).map(ret -> {
                            @SuppressWarnings({"rawtypes", "unchecked"})
                            List<Type> out = FunctionReturnDecoder.decode(ret, (List) List.of(new TypeReference<Address>() { }));
                            String onChain = out.isEmpty() ? "(none)" : out.get(0).getValue().toString();
                            return signerAddress.equalsIgnoreCase(onChain) ? "yes" : "the contract's signer is " + onChain;
                        }));
    }

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
                .chain(() -> authorised(signerAddress, contractAddress))
                .invoke(onChain -> {
                    if (!onChain.equals("yes")) {
                        throw new IllegalStateException("refusing to start: the configured key's address " + signerAddress
                                + " is not a signer of the contract " + contractAddress + " (" + onChain + ")");
                    }
                })
                .replaceWithVoid();
    }
}
