package dev.agentpay.commons.chains.escrow;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Function;
import org.web3j.abi.datatypes.Type;
import org.web3j.abi.datatypes.generated.Bytes32;
import org.web3j.abi.datatypes.generated.Uint256;
import org.web3j.abi.datatypes.generated.Uint64;
import org.web3j.abi.datatypes.generated.Uint8;
import org.web3j.crypto.Hash;
import org.web3j.utils.Numeric;

/**
 * The ABI of {@code MandateEscrow} (settlement-watcher/src/main/solidity/MandateEscrow.sol), shared by
 * mandate-service (funding instructions) and settlement-watcher (operator commands, events): calldata of every
 * function, the escrow id and EIP-3009 terms nonce exactly as the contract derives them, event decoding, the
 * {@code totals} return value, custom-error names from revert data, and the EIP-712
 * {@code ReceiveWithAuthorization} typed data a funder signs. Hex strings are {@code 0x}-prefixed lower case;
 * amounts are atomic USDC units (6 decimals); times unix seconds. The interface between services:
 * settlement-watcher's and mandate-service's READMEs ("Mandate escrow", "Escrow"); the contract's rules: its NatSpec and settlement-watcher's README.
 */
public final class MandateEscrowAbi {

    private MandateEscrowAbi() {
    }

    /** The contract's {@code State} enum, in declaration order; {@link #value()} is the API/payload name. */
    public enum State {
        NONE, ACTIVE, FROZEN, RESOLVED, REFUNDED;

        public String value() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static State of(int ordinal) {
            State[] all = values();
            if (ordinal < 0 || ordinal >= all.length) {
                throw new IllegalArgumentException("unknown escrow state " + ordinal);
            }
            return all[ordinal];
        }
    }

    /** An event's kind, its Solidity signature and the payload type published on {@code escrow-events}. */
    public enum Kind {
        FUNDED("Funded(bytes32,bytes32,address,address,uint256,uint64,uint64,uint64)", "escrow.funded"),
        RELEASED("Released(bytes32,bytes32,bytes32,address,uint256)", "escrow.released"),
        WITHDRAWN("Withdrawn(bytes32,bytes32,address,uint256)", "escrow.withdrawn"),
        FROZEN("Frozen(bytes32,bytes32)", "escrow.frozen"),
        RESOLVED("Resolved(bytes32,bytes32,uint256,uint256)", "escrow.resolved"),
        REFUNDED("Refunded(bytes32,bytes32,address,uint256)", "escrow.refunded");

        private final String signature;
        private final String topic;
        private final String eventType;

        Kind(String signature, String eventType) {
            this.signature = signature;
            this.topic = Hash.sha3String(signature);
            this.eventType = eventType;
        }

        public String signature() {
            return signature;
        }

        /** topic0 of the event (keccak-256 of its signature). */
        public String topic() {
            return topic;
        }

        /** The {@code escrow-events} type, e.g. {@code escrow.funded}. */
        public String eventType() {
            return eventType;
        }

        public static Optional<Kind> ofTopic(String topic0) {
            for (Kind k : values()) {
                if (k.topic.equalsIgnoreCase(topic0)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }
    }

    /** Every event's topic0 (an {@code eth_getLogs} OR filter). */
    public static List<String> topics() {
        return java.util.Arrays.stream(Kind.values()).map(Kind::topic).toList();
    }

    /** The custom errors of the contract by their 4-byte selector (lower-case 0x hex). */
    public static final Map<String, String> ERRORS;

    static {
        Map<String, String> e = new LinkedHashMap<>();
        for (String sig : List.of("ZeroAddress()", "NotOperator(address)", "NotFunder(address)", "NotCounterparty(address)",
                "AlreadyFunded(bytes32)", "BadTerms()", "BadAmount()", "WrongState(bytes32,uint8)",
                "OperatorWindowClosed(bytes32)", "NotYetRefundable(bytes32,uint256)", "RefUsed(bytes32)",
                "ExceedsHeld(uint256,uint256)", "SplitMismatch(uint256,uint256)", "NothingToPay(bytes32)", "TransferFailed()")) {
            e.put(Hash.sha3String(sig).substring(0, 10), sig.substring(0, sig.indexOf('(')));
        }
        ERRORS = Map.copyOf(e);
    }

    /**
     * The terms an escrow is funded with (what the EIP-3009 nonce commits to). {@code streamStart = streamEnd = 0}:
     * no stream.
     */
    public record Terms(String mandateHash, String counterparty, BigInteger amount, long streamStart, long streamEnd,
            long expiresAt) {

        public Terms {
            if (amount == null || amount.signum() <= 0) {
                throw new IllegalArgumentException("amount must be positive");
            }
            if ((streamStart != 0 || streamEnd != 0) && !(0 < streamStart && streamStart < streamEnd && streamEnd <= expiresAt)) {
                throw new IllegalArgumentException("stream must satisfy 0 < start < end <= expiresAt");
            }
            mandateHash = hex32(mandateHash);
            counterparty = address(counterparty);
        }

        public boolean streamed() {
            return streamEnd != 0;
        }
    }

    // ------------------------------------------------------------------ ids

    /** {@code keccak256(abi.encode(mandateHash, funder))}: the escrow of this funder for this mandate. */
    public static String escrowId(String mandateHash, String funder) {
        return Numeric.toHexString(Hash.sha3(Numeric.hexStringToByteArray(encode(new Bytes32(bytes32(mandateHash)), new Address(funder)))));
    }

    /** {@code keccak256(abi.encode(mandateHash, counterparty, amount, streamStart, streamEnd, expiresAt))}: the EIP-3009 nonce. */
    public static String termsNonce(Terms t) {
        return Numeric.toHexString(Hash.sha3(Numeric.hexStringToByteArray(encode(termsArgs(t).toArray(new Type<?>[0])))));
    }

    /** A release's ref: keccak-256 of the charge id's UTF-8 bytes (each ref pays once, ever). */
    public static String ref(String chargeId) {
        return Numeric.toHexString(Hash.sha3(chargeId.getBytes(StandardCharsets.UTF_8)));
    }

    // ------------------------------------------------------------------ calldata

    /** {@code USDC.approve(spender, amount)}. */
    public static String approve(String spender, BigInteger amount) {
        return call("approve", new Address(spender), new Uint256(amount));
    }

    /** {@code fund(mandateHash, counterparty, amount, streamStart, streamEnd, expiresAt)}; the funder is the sender. */
    public static String fund(Terms t) {
        return call("fund", termsArgs(t).toArray(new Type<?>[0]));
    }

    /** {@code fundWithAuthorization(terms..., from, validAfter, validBefore, v, r, s)}. */
    public static String fundWithAuthorization(Terms t, String from, BigInteger validAfter, BigInteger validBefore, int v,
            String r, String s) {
        List<Type<?>> args = new java.util.ArrayList<>(termsArgs(t));
        args.add(new Address(from));
        args.add(new Uint256(validAfter));
        args.add(new Uint256(validBefore));
        args.add(new Uint8(v));
        args.add(new Bytes32(bytes32(r)));
        args.add(new Bytes32(bytes32(s)));
        // the terms are a static tuple: encoded inline, word for word as fund's; only the selector names the tuple
        return FUND_WITH_AUTHORIZATION_SELECTOR + encode(args.toArray(new Type<?>[0])).substring(2);
    }

    /** The Solidity signature of fundWithAuthorization (its first parameter is the Terms tuple). */
    public static final String FUND_WITH_AUTHORIZATION =
            "fundWithAuthorization((bytes32,address,uint256,uint64,uint64,uint64),address,uint256,uint256,uint8,bytes32,bytes32)";
    static final String FUND_WITH_AUTHORIZATION_SELECTOR = Hash.sha3String(FUND_WITH_AUTHORIZATION).substring(0, 10);

    /** The same with a 65-byte {@code r ‖ s ‖ v} signature as wallets return it ({@code v} 27/28 or 0/1). */
    public static String fundWithAuthorization(Terms t, String from, BigInteger validAfter, BigInteger validBefore, String signature) {
        byte[] sig = Numeric.hexStringToByteArray(signature);
        if (sig.length != 65) {
            throw new IllegalArgumentException("signature must be 65 bytes");
        }
        int v = sig[64] & 0xff;
        if (v < 27) {
            v += 27;
        }
        byte[] r = java.util.Arrays.copyOfRange(sig, 0, 32);
        byte[] s = java.util.Arrays.copyOfRange(sig, 32, 64);
        return fundWithAuthorization(t, from, validAfter, validBefore, v, Numeric.toHexString(r), Numeric.toHexString(s));
    }

    public static String release(String id, BigInteger amount, String ref) {
        return call("release", new Bytes32(bytes32(id)), new Uint256(amount), new Bytes32(bytes32(ref)));
    }

    public static String freeze(String id) {
        return call("freeze", new Bytes32(bytes32(id)));
    }

    public static String resolve(String id, BigInteger toCounterparty, BigInteger toProposer) {
        return call("resolve", new Bytes32(bytes32(id)), new Uint256(toCounterparty), new Uint256(toProposer));
    }

    public static String withdraw(String id) {
        return call("withdraw", new Bytes32(bytes32(id)));
    }

    public static String refund(String id) {
        return call("refund", new Bytes32(bytes32(id)));
    }

    /** {@code totals(id)} (a view; decode the answer with {@link #decodeTotals}). */
    public static String totals(String id) {
        return call("totals", new Bytes32(bytes32(id)));
    }

    /** {@code refUsed(ref)} (a view returning a bool word). */
    public static String refUsed(String ref) {
        return call("refUsed", new Bytes32(bytes32(ref)));
    }

    /** An escrow's totals as {@code totals(id)} returns them; held = funded - released - withdrawn - refunded. */
    public record Totals(BigInteger funded, BigInteger released, BigInteger withdrawn, BigInteger refunded, BigInteger held,
            State state) {
    }

    public static Totals decodeTotals(String returnData) {
        List<BigInteger> w = words(returnData);
        if (w.size() < 6) {
            throw new IllegalArgumentException("totals() answered " + w.size() + " words");
        }
        return new Totals(w.get(0), w.get(1), w.get(2), w.get(3), w.get(4), State.of(w.get(5).intValueExact()));
    }

    // ------------------------------------------------------------------ events

    /**
     * One decoded event of the contract. Fields that do not apply to the kind are null: {@code funder},
     * {@code counterparty}, stream and expiry for FUNDED; {@code to} for RELEASED, WITHDRAWN, REFUNDED (and the
     * counterparty of FUNDED); {@code ref} for RELEASED; {@code amount} for FUNDED, RELEASED, WITHDRAWN, REFUNDED;
     * {@code toCounterparty}/{@code toProposer} for RESOLVED.
     */
    public record Event(Kind kind, String escrowId, String mandateHash, String funder, String counterparty, String to,
            String ref, BigInteger amount, BigInteger toCounterparty, BigInteger toProposer, Long streamStart, Long streamEnd,
            Long expiresAt) {
    }

    /** Decodes a log of the contract; empty for a log that is not one of its events. */
    public static Optional<Event> decode(List<String> topics, String data) {
        if (topics == null || topics.isEmpty()) {
            return Optional.empty();
        }
        Optional<Kind> kind = Kind.ofTopic(topics.get(0));
        if (kind.isEmpty() || topics.size() < 3) {
            return Optional.empty();
        }
        String id = hex32(topics.get(1));
        String mandate = hex32(topics.get(2));
        List<BigInteger> w = words(data);
        return Optional.of(switch (kind.get()) {
            case FUNDED -> new Event(Kind.FUNDED, id, mandate, topicAddress(topics.get(3)), wordAddress(w.get(0)), wordAddress(w.get(0)),
                    null, w.get(1), null, null, w.get(2).longValueExact(), w.get(3).longValueExact(), w.get(4).longValueExact());
            case RELEASED -> new Event(Kind.RELEASED, id, mandate, null, null, wordAddress(w.get(0)), hex32(topics.get(3)), w.get(1),
                    null, null, null, null, null);
            case WITHDRAWN -> new Event(Kind.WITHDRAWN, id, mandate, null, null, topicAddress(topics.get(3)), null, w.get(0),
                    null, null, null, null, null);
            case FROZEN -> new Event(Kind.FROZEN, id, mandate, null, null, null, null, null, null, null, null, null, null);
            case RESOLVED -> new Event(Kind.RESOLVED, id, mandate, null, null, null, null, null, w.get(0), w.get(1), null, null, null);
            case REFUNDED -> new Event(Kind.REFUNDED, id, mandate, null, null, topicAddress(topics.get(3)), null, w.get(0),
                    null, null, null, null, null);
        });
    }

    /** The custom error's name from a revert's data (its first 4 bytes), if the contract declares it. */
    public static Optional<String> errorName(String revertData) {
        if (revertData == null) {
            return Optional.empty();
        }
        String d = revertData.toLowerCase(Locale.ROOT);
        if (!d.startsWith("0x")) {
            d = "0x" + d;
        }
        return d.length() < 10 ? Optional.empty() : Optional.ofNullable(ERRORS.get(d.substring(0, 10)));
    }

    // ------------------------------------------------------------------ EIP-3009 typed data

    /**
     * The EIP-712 typed data (as {@code eth_signTypedData_v4} takes it) of USDC's
     * {@code ReceiveWithAuthorization(from, to = escrow, value = amount, validAfter, validBefore, nonce = termsNonce)}
     * in the token's own domain ({@code tokenName}/{@code tokenVersion} of the chain's USDC, {@code chainId},
     * verifyingContract = the token). Numbers are decimal strings (JSON-safe beyond 2^53).
     */
    public static Map<String, Object> receiveWithAuthorizationTypedData(String tokenName, String tokenVersion, long chainId,
            String token, String escrow, String from, Terms t, BigInteger validAfter, BigInteger validBefore) {
        Map<String, Object> types = new LinkedHashMap<>();
        types.put("EIP712Domain", List.of(field("name", "string"), field("version", "string"), field("chainId", "uint256"),
                field("verifyingContract", "address")));
        types.put("ReceiveWithAuthorization", List.of(field("from", "address"), field("to", "address"), field("value", "uint256"),
                field("validAfter", "uint256"), field("validBefore", "uint256"), field("nonce", "bytes32")));
        Map<String, Object> domain = new LinkedHashMap<>();
        domain.put("name", tokenName);
        domain.put("version", tokenVersion);
        domain.put("chainId", chainId);
        domain.put("verifyingContract", address(token));
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("from", address(from));
        message.put("to", address(escrow));
        message.put("value", t.amount().toString());
        message.put("validAfter", validAfter.toString());
        message.put("validBefore", validBefore.toString());
        message.put("nonce", termsNonce(t));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("types", types);
        out.put("primaryType", "ReceiveWithAuthorization");
        out.put("domain", domain);
        out.put("message", message);
        return out;
    }

    private static Map<String, String> field(String name, String type) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("type", type);
        return f;
    }

    // ------------------------------------------------------------------ helpers

    private static List<Type<?>> termsArgs(Terms t) {
        return List.of(new Bytes32(bytes32(t.mandateHash())), new Address(t.counterparty()), new Uint256(t.amount()),
                new Uint64(BigInteger.valueOf(t.streamStart())), new Uint64(BigInteger.valueOf(t.streamEnd())),
                new Uint64(BigInteger.valueOf(t.expiresAt())));
    }

    @SuppressWarnings("rawtypes")
    private static String call(String name, Type<?>... args) {
        return FunctionEncoder.encode(new Function(name, List.<Type>of(args), List.of()));
    }

    /** abi.encode of static arguments: their words one after another. */
    @SuppressWarnings("rawtypes")
    private static String encode(Type<?>... args) {
        return "0x" + FunctionEncoder.encodeConstructor(List.<Type>of(args));
    }

    /** A 32-byte value from 0x hex (exactly 32 bytes). */
    public static byte[] bytes32(String hex) {
        byte[] b = Numeric.hexStringToByteArray(hex);
        if (b.length != 32) {
            throw new IllegalArgumentException("not 32 bytes: " + hex);
        }
        return b;
    }

    /** Normalizes 0x hex of 32 bytes to lower case. */
    public static String hex32(String hex) {
        return Numeric.toHexString(bytes32(hex));
    }

    /** Normalizes an EVM address to lower-case 0x hex (20 bytes). */
    public static String address(String a) {
        if (a == null || !a.matches("^0x[0-9a-fA-F]{40}$")) {
            throw new IllegalArgumentException("not an EVM address: " + a);
        }
        return a.toLowerCase(Locale.ROOT);
    }

    private static String topicAddress(String topic) {
        return "0x" + Numeric.cleanHexPrefix(topic).substring(24).toLowerCase(Locale.ROOT);
    }

    private static String wordAddress(BigInteger word) {
        String hex = word.toString(16);
        return "0x" + "0".repeat(40 - hex.length()) + hex;
    }

    private static List<BigInteger> words(String data) {
        String hex = Numeric.cleanHexPrefix(data == null ? "" : data);
        List<BigInteger> out = new java.util.ArrayList<>();
        for (int i = 0; i + 64 <= hex.length(); i += 64) {
            out.add(new BigInteger(hex.substring(i, i + 64), 16));
        }
        return out;
    }
}
