package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EscrowInstaller;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.SharedServers;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Map;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;

/**
 * A {@code MandateEscrow} on its own anvil chain (chain id 8453, USDC at Base's canonical address, so EIP-3009
 * signatures use the real token's domain), driven with unlocked and impersonated accounts: fresh random
 * addresses per case, so every balance a test reads belongs to that case alone. Time moves with
 * {@code evm_increaseTime}, which is why the chain is not shared with the watcher's tests.
 */
final class EscrowChain {

    static final ObjectMapper JSON = new ObjectMapper();
    static final UsdcInstaller.Canonical USDC = UsdcInstaller.BASE;
    static final SecureRandom RANDOM = new SecureRandom();

    final EvmRpc rpc;
    final String rpcUrl;
    final String deployer;
    final String operator;
    final String escrow;

    private EscrowChain(String rpcUrl, String deployer, String operator, String escrow) {
        this.rpcUrl = rpcUrl;
        this.rpc = new EvmRpc(rpcUrl);
        this.deployer = deployer;
        this.operator = operator;
        this.escrow = escrow;
    }

    /** The chain (started once per JVM) with a new escrow whose grace is {@code graceSeconds}. */
    static EscrowChain start(long graceSeconds) {
        AnvilNode node = SharedServers.anvil("escrow", USDC.chainId());
        EvmRpc rpc = new EvmRpc(node.rpcUrl());
        UsdcInstaller.install(rpc, USDC);
        var accounts = rpc.call("eth_accounts");
        String deployer = accounts.get(3).asText();
        String operator = accounts.get(6).asText();
        return new EscrowChain(node.rpcUrl(), deployer, operator,
                EscrowInstaller.deploy(rpc, deployer, USDC.address(), operator, graceSeconds));
    }

    /** A fresh address anvil lets us send from (impersonated, with gas money). */
    String account() {
        Credentials c = Credentials.create(Numeric.toHexStringNoPrefixZeroPadded(new BigInteger(256, RANDOM).add(BigInteger.ONE), 64));
        return impersonate(c.getAddress());
    }

    String impersonate(String address) {
        rpc.call("anvil_impersonateAccount", address);
        rpc.call("anvil_setBalance", address, "0x56bc75e2d63100000"); // 100 ETH of gas
        return address;
    }

    void mint(String to, BigInteger amount) {
        UsdcInstaller.mint(rpc, USDC.address(), to, amount);
    }

    BigInteger balance(String who) {
        return UsdcInstaller.balanceOf(rpc, USDC.address(), who);
    }

    JsonNode send(String from, String to, String data) {
        return rpc.transact(from, to, data);
    }

    /** Sends to the escrow and expects the revert to carry the contract's custom error {@code error}. */
    void reverts(String from, String data, String error) {
        String selector = MandateEscrowAbi.ERRORS.entrySet().stream().filter(e -> e.getValue().equals(error))
                .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new IllegalArgumentException(error));
        // the call names the error (anvil mines a reverting transaction without its data), then the transaction reverts
        assertThatThrownBy(() -> rpc.call("eth_call", Map.of("from", from, "to", escrow, "data", data), "latest")).as(error)
                .hasMessageContaining(selector.substring(2));
        assertThatThrownBy(() -> rpc.transact(from, escrow, data)).as(error).hasMessageContaining("revert");
    }

    MandateEscrowAbi.Totals totals(String id) {
        return MandateEscrowAbi.decodeTotals(rpc.ethCall(escrow, MandateEscrowAbi.totals(id)));
    }

    /** The latest block's timestamp. */
    long now() {
        return Long.decode(rpc.call("eth_getBlockByNumber", "latest", false).get("timestamp").asText());
    }

    /** Moves the chain's clock forward and mines a block at the new time. */
    void warp(long seconds) {
        rpc.call("evm_increaseTime", seconds);
        rpc.mine(1);
    }

    static String randomHash() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Numeric.toHexString(b);
    }

    /** Funds by approve + fund from {@code funder} (which must hold the amount); returns the escrow id. */
    String fundByApprove(String funder, MandateEscrowAbi.Terms t) {
        send(funder, USDC.address(), MandateEscrowAbi.approve(escrow, t.amount()));
        JsonNode receipt = send(funder, escrow, MandateEscrowAbi.fund(t));
        String id = MandateEscrowAbi.escrowId(t.mandateHash(), funder);
        assertThat(receipt.get("logs").toString()).contains(MandateEscrowAbi.Kind.FUNDED.topic().substring(2));
        return id;
    }

    /** The funder's EIP-3009 ReceiveWithAuthorization signature (65 bytes, r ‖ s ‖ v) over the escrow's typed data. */
    String signReceive(Credentials funder, MandateEscrowAbi.Terms t, BigInteger validAfter, BigInteger validBefore) {
        try {
            Map<String, Object> typed = MandateEscrowAbi.receiveWithAuthorizationTypedData(USDC.name(), USDC.version(),
                    USDC.chainId(), USDC.address(), escrow, funder.getAddress(), t, validAfter, validBefore);
            byte[] digest = new StructuredDataEncoder(JSON.writeValueAsString(typed)).hashStructuredData();
            Sign.SignatureData sig = Sign.signMessage(digest, funder.getEcKeyPair(), false);
            byte[] out = new byte[65];
            System.arraycopy(sig.getR(), 0, out, 0, 32);
            System.arraycopy(sig.getS(), 0, out, 32, 32);
            out[64] = sig.getV()[0];
            return Numeric.toHexString(out);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String selector(String signature) {
        return Hash.sha3String(signature).substring(0, 10);
    }
}
