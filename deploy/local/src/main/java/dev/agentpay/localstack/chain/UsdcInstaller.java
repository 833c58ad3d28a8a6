package dev.agentpay.localstack.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.AnvilNode;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Puts the local USDC token ({@code deploy/local/src/main/solidity/LocalUsdc.sol}, compiled artifacts in
 * {@code contracts/LocalUsdc.bin|abi}) at a chain's canonical USDC address on an anvil chain, and mints it.
 *
 * <p>How: the creation code (with name, version and owner as constructor arguments) is run through
 * {@code eth_call}, which returns the runtime code with the immutables filled in, and that code is
 * written to the canonical address with {@code anvil_setCode}. Nothing is mined and no nonce is used.
 * The token keeps everything it needs before its first mint in immutables, because {@code anvil_setCode}
 * copies no storage; its EIP-712 domain separator is computed per call from {@code block.chainid} and
 * {@code address(this)}.
 *
 * <p>Recompile after changing the Solidity source (from {@code deploy/local}):
 * {@code node/node_modules/.bin/solcjs --optimize --optimize-runs 200 --bin --abi -o /tmp/out src/main/solidity/LocalUsdc.sol}
 * and copy the two files to {@code src/main/resources/contracts/LocalUsdc.{bin,abi}}.
 */
public final class UsdcInstaller {

    /** The account allowed to mint: anvil's first unlocked dev account. */
    public static final String OWNER = AnvilNode.DEV_ADDRESS_0;

    /**
     * The token of one chain as the local stack installs it: canonical address and EIP-712 domain
     * name/version as on the real chain.
     */
    public record Canonical(String chain, long chainId, String address, String name, String version) {
    }

    /** Circle's native USDC on Base: EIP-712 domain ("USD Coin", "2"). */
    public static final Canonical BASE = new Canonical("base", 8453,
            "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "USD Coin", "2");
    /** Circle's native USDC on Polygon PoS: EIP-712 domain ("USD Coin", "2"). */
    public static final Canonical POLYGON = new Canonical("polygon", 137,
            "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", "USD Coin", "2");
    /** Circle's native USDC on Arbitrum One: EIP-712 domain ("USD Coin", "2"). */
    public static final Canonical ARBITRUM = new Canonical("arbitrum", 42161,
            "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "USD Coin", "2");
    /**
     * SKALE Base (chain id 1187947933) has no Circle-issued USDC; operators configure the bridged USDC of
     * their SKALE chain. The local default is the SKALE Bridge's USDC on SKALE Base, with its EIP-712
     * domain ("Bridged USDC (SKALE Bridge)", "2") as x402 clients use it. Override the address through
     * {@code CHAIN_SKALE_USDC_ADDRESS} and pass the matching name/version to {@link #install}.
     */
    public static final Canonical SKALE = new Canonical("skale", 1187947933L,
            "0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20", "Bridged USDC (SKALE Bridge)", "2");

    /** The four EVM settlement chains in the order of the chain table. */
    public static final List<Canonical> EVM_CHAINS = List.of(BASE, SKALE, POLYGON, ARBITRUM);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SEL_MINT = "40c10f19";       // mint(address,uint256)
    private static final String SEL_BALANCE_OF = "70a08231"; // balanceOf(address)
    private static final String SEL_TRANSFER = "a9059cbb";   // transfer(address,uint256)
    private static final String SEL_NAME = "06fdde03";       // name()

    private UsdcInstaller() {
    }

    /** The canonical token of a chain by its chain-table name (base, polygon, arbitrum, skale). */
    public static Optional<Canonical> canonical(String chain) {
        return EVM_CHAINS.stream().filter(c -> c.chain().equalsIgnoreCase(chain)).findFirst();
    }

    /** Installs with the chain's documented defaults. */
    public static boolean install(EvmRpc rpc, Canonical token) {
        return install(rpc, token.address(), token.name(), token.version());
    }

    /**
     * Installs the token at {@code canonicalAddress} unless code is already there (idempotent: a
     * restarted chain with kept state, or a second call, leaves the token and its balances alone).
     *
     * @return {@code true} when it installed the code, {@code false} when code was already present
     */
    public static boolean install(EvmRpc rpc, String canonicalAddress, String name, String version) {
        String code = rpc.getCode(canonicalAddress);
        if (code != null && !code.equals("0x") && !code.isEmpty()) {
            return false;
        }
        ObjectNode tx = JSON.createObjectNode();
        tx.put("from", OWNER);
        tx.put("data", "0x" + creationCode() + constructorArgs(name, version, OWNER));
        tx.put("gas", "0x1c9c380");
        String runtime = rpc.call("eth_call", tx, "latest").asText();
        if (runtime.length() < 10) {
            throw new IllegalStateException("LocalUsdc constructor returned no code");
        }
        rpc.setCode(canonicalAddress, runtime);
        String installedName = decodeString(rpc.ethCall(canonicalAddress, "0x" + SEL_NAME));
        if (!name.equals(installedName)) {
            throw new IllegalStateException("LocalUsdc at " + canonicalAddress + " answers name " + installedName);
        }
        return true;
    }

    /** Mints {@code amount} atomic units (6 decimals) to {@code to}; sent by the owner, waits for the receipt. */
    public static JsonNode mint(EvmRpc rpc, String token, String to, BigInteger amount) {
        return rpc.transact(OWNER, token, "0x" + SEL_MINT + EvmRpc.word(to) + EvmRpc.word(amount));
    }

    /** Transfers from an unlocked account (anvil dev accounts), waits for the receipt. */
    public static JsonNode transfer(EvmRpc rpc, String token, String from, String to, BigInteger amount) {
        return rpc.transact(from, token, "0x" + SEL_TRANSFER + EvmRpc.word(to) + EvmRpc.word(amount));
    }

    public static BigInteger balanceOf(EvmRpc rpc, String token, String who) {
        return new BigInteger(rpc.ethCall(token, "0x" + SEL_BALANCE_OF + EvmRpc.word(who)).substring(2), 16);
    }

    static String creationCode() {
        try (InputStream in = UsdcInstaller.class.getResourceAsStream("/contracts/LocalUsdc.bin")) {
            if (in == null) {
                throw new IllegalStateException("contracts/LocalUsdc.bin is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().replaceFirst("^0x", "");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** ABI encoding of {@code (string name, string version, address owner)} for strings under 32 bytes. */
    static String constructorArgs(String name, String version, String owner) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] v = version.getBytes(StandardCharsets.UTF_8);
        if (n.length > 31 || v.length > 31) {
            throw new IllegalArgumentException("name and version must be at most 31 bytes");
        }
        return EvmRpc.word(BigInteger.valueOf(0x60))
                + EvmRpc.word(BigInteger.valueOf(0xa0))
                + EvmRpc.word(owner)
                + EvmRpc.word(BigInteger.valueOf(n.length)) + padRight(n)
                + EvmRpc.word(BigInteger.valueOf(v.length)) + padRight(v);
    }

    private static String padRight(byte[] b) {
        StringBuilder sb = new StringBuilder(64);
        for (byte x : b) {
            sb.append(String.format(Locale.ROOT, "%02x", x));
        }
        while (sb.length() < 64) {
            sb.append('0');
        }
        return sb.toString();
    }

    /** Decodes an ABI-encoded single {@code string} return value. */
    static String decodeString(String hex) {
        String h = hex.replaceFirst("^0x", "");
        if (h.length() < 128) {
            return "";
        }
        int offset = new BigInteger(h.substring(0, 64), 16).intValueExact() * 2;
        int len = new BigInteger(h.substring(offset, offset + 64), 16).intValueExact();
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            out[i] = (byte) Integer.parseInt(h.substring(offset + 64 + 2 * i, offset + 66 + 2 * i), 16);
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
