package dev.agentpay.localstack.chain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.testing.SharedServers;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;
import org.web3j.utils.Numeric;

/** The local USDC token at its canonical address on a real anvil with Base's chain id. */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class UsdcInstallerTest {

    private static final UsdcInstaller.Canonical TOKEN = UsdcInstaller.BASE;
    private static EvmRpc rpc;
    private static final Credentials PAYER = Credentials.create(AnvilNode.DEV_KEY_1);
    private static final String SELLER = "0x000000000000000000000000000000000000beef";

    @BeforeAll
    static void install() {
        AnvilNode node = SharedServers.anvil("usdc-base", TOKEN.chainId());
        rpc = new EvmRpc(node.rpcUrl());
        assertThat(UsdcInstaller.install(rpc, TOKEN)).isTrue();
    }

    @Test
    void answersAsUsdcAtTheCanonicalAddress() {
        assertThat(rpc.getCode(TOKEN.address())).hasSizeGreaterThan(100);
        assertThat(UsdcInstaller.decodeString(call("name()"))).isEqualTo("USD Coin");
        assertThat(UsdcInstaller.decodeString(call("version()"))).isEqualTo("2");
        assertThat(UsdcInstaller.decodeString(call("symbol()"))).isEqualTo("USDC");
        assertThat(new BigInteger(call("decimals()").substring(2), 16)).isEqualTo(6);
        assertThat(call("owner()")).endsWith(UsdcInstaller.OWNER.substring(2).toLowerCase());
        // domain separator of the canonical address, not of the address the code was compiled for
        String expected = Numeric.toHexString(Hash.sha3(Numeric.hexStringToByteArray(
                Numeric.toHexStringNoPrefix(Hash.sha3("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)".getBytes()))
                        + Numeric.toHexStringNoPrefix(Hash.sha3("USD Coin".getBytes()))
                        + Numeric.toHexStringNoPrefix(Hash.sha3("2".getBytes()))
                        + EvmRpc.word(BigInteger.valueOf(8453))
                        + EvmRpc.word(TOKEN.address()))));
        assertThat(call("DOMAIN_SEPARATOR()")).isEqualTo(expected);
    }

    @Test
    void installIsIdempotentAndKeepsBalances() {
        String holder = "0x00000000000000000000000000000000000a11ce";
        UsdcInstaller.mint(rpc, TOKEN.address(), holder, BigInteger.valueOf(7_000_000));
        assertThat(UsdcInstaller.install(rpc, TOKEN)).isFalse();
        assertThat(UsdcInstaller.balanceOf(rpc, TOKEN.address(), holder)).isEqualTo(BigInteger.valueOf(7_000_000));
    }

    @Test
    void onlyTheOwnerMints() {
        String data = "0x40c10f19" + EvmRpc.word(PAYER.getAddress()) + EvmRpc.word(BigInteger.ONE);
        BigInteger supply = new BigInteger(call("totalSupply()").substring(2), 16);
        assertThatThrownBy(() -> rpc.transact(PAYER.getAddress(), TOKEN.address(), data))
                .hasMessageContaining("reverted");
        assertThat(new BigInteger(call("totalSupply()").substring(2), 16)).isEqualTo(supply);
    }

    @Test
    void transferWithAuthorizationMovesFundsOnceWithAValidSignature() throws Exception {
        UsdcInstaller.mint(rpc, TOKEN.address(), PAYER.getAddress(), BigInteger.valueOf(5_000_000));
        BigInteger before = UsdcInstaller.balanceOf(rpc, TOKEN.address(), SELLER);
        byte[] nonce = new byte[32];
        new SecureRandom().nextBytes(nonce);
        String nonceHex = Numeric.toHexString(nonce);
        BigInteger value = BigInteger.valueOf(1_250_000);
        long validBefore = System.currentTimeMillis() / 1000 + 3600;
        String typed = """
                {"types":{
                  "EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},
                    {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],
                  "TransferWithAuthorization":[{"name":"from","type":"address"},{"name":"to","type":"address"},
                    {"name":"value","type":"uint256"},{"name":"validAfter","type":"uint256"},
                    {"name":"validBefore","type":"uint256"},{"name":"nonce","type":"bytes32"}]},
                 "primaryType":"TransferWithAuthorization",
                 "domain":{"name":"USD Coin","version":"2","chainId":8453,"verifyingContract":"%s"},
                 "message":{"from":"%s","to":"%s","value":"%s","validAfter":"0","validBefore":"%d","nonce":"%s"}}
                """.formatted(TOKEN.address(), PAYER.getAddress(), SELLER, value, validBefore, nonceHex);
        byte[] digest = new StructuredDataEncoder(typed).hashStructuredData();
        Sign.SignatureData sig = Sign.signMessage(digest, PAYER.getEcKeyPair(), false);
        String args = EvmRpc.word(PAYER.getAddress()) + EvmRpc.word(SELLER) + EvmRpc.word(value)
                + EvmRpc.word(BigInteger.ZERO) + EvmRpc.word(BigInteger.valueOf(validBefore))
                + nonceHex.substring(2)
                + EvmRpc.word(new BigInteger(1, sig.getV()))
                + HexFormat.of().formatHex(sig.getR()) + HexFormat.of().formatHex(sig.getS());
        String selector = Numeric.toHexStringNoPrefix(Hash.sha3(
                "transferWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)".getBytes()))
                .substring(0, 8);

        // relayed by someone else: the signature is the payer's authority
        rpc.transact(AnvilNode.DEV_ADDRESS_0, TOKEN.address(), "0x" + selector + args);

        assertThat(UsdcInstaller.balanceOf(rpc, TOKEN.address(), SELLER)).isEqualTo(before.add(value));
        assertThat(call("authorizationState(address,bytes32)", EvmRpc.word(PAYER.getAddress()) + nonceHex.substring(2)))
                .endsWith("1");
        assertThatThrownBy(() -> rpc.transact(AnvilNode.DEV_ADDRESS_0, TOKEN.address(), "0x" + selector + args))
                .hasMessageContaining("reverted");
        // a tampered amount does not recover to the payer
        String tampered = args.replace(EvmRpc.word(value), EvmRpc.word(value.add(BigInteger.ONE)));
        assertThatThrownBy(() -> rpc.transact(AnvilNode.DEV_ADDRESS_0, TOKEN.address(), "0x" + selector + tampered))
                .hasMessageContaining("reverted");
        assertThat(UsdcInstaller.balanceOf(rpc, TOKEN.address(), SELLER)).isEqualTo(before.add(value));
    }

    @Test
    void everyEvmChainGetsItsOwnDomain() {
        AnvilNode skale = SharedServers.anvil("usdc-skale", UsdcInstaller.SKALE.chainId());
        EvmRpc skaleRpc = new EvmRpc(skale.rpcUrl());
        UsdcInstaller.install(skaleRpc, UsdcInstaller.SKALE);
        assertThat(UsdcInstaller.decodeString(skaleRpc.ethCall(UsdcInstaller.SKALE.address(), selector("name()"))))
                .isEqualTo("Bridged USDC (SKALE Bridge)");
        UsdcInstaller.mint(skaleRpc, UsdcInstaller.SKALE.address(), SELLER, BigInteger.TEN);
        assertThat(UsdcInstaller.balanceOf(skaleRpc, UsdcInstaller.SKALE.address(), SELLER)).isEqualTo(BigInteger.TEN);
        SharedServers.stopAnvil("usdc-skale");
    }

    private static String selector(String signature) {
        return Numeric.toHexString(Hash.sha3(signature.getBytes())).substring(0, 10);
    }

    private static String call(String signature) {
        return rpc.ethCall(TOKEN.address(), selector(signature));
    }

    private static String call(String signature, String args) {
        return rpc.ethCall(TOKEN.address(), selector(signature) + args);
    }
}
