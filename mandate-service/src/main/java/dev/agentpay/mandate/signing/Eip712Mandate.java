package dev.agentpay.mandate.signing;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.web3j.crypto.ECDSASignature;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;

/**
 * The EIP-712 typed data of a mandate, its digest, and the recovery of a wallet signature over it.
 *
 * <pre>
 * domain  EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)
 *         name "agentpay mandate", version "1", chainId and verifyingContract: the anchor network and
 *         the MandateAnchor contract in force when the mandate was created (stored with the mandate)
 * message Mandate(string id,string proposer,string counterparty,string scope,bytes32 termsHash,
 *                 string expiresAt,string protoVersion)
 *         termsHash = keccak256(UTF-8 bytes of the canonical terms text), expiresAt = the canonical
 *         {@code expires_at} string (ISO 8601 UTC, milliseconds)
 * digest  keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(message)): the mandate's
 *         {@code proto_mandate_hash}, and what is anchored
 * </pre>
 *
 * Written out by hand rather than through web3j's JSON-driven {@code StructuredDataEncoder}: the struct is
 * fixed and all strings, and the tests check the digest against viem's {@code hashTypedData}.
 */
public final class Eip712Mandate {

    public static final String DOMAIN_NAME = "agentpay mandate";
    public static final String DOMAIN_VERSION = "1";
    public static final String PRIMARY_TYPE = "Mandate";
    static final String DOMAIN_TYPE = "EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)";
    static final String MANDATE_TYPE = "Mandate(string id,string proposer,string counterparty,string scope,bytes32 termsHash,"
            + "string expiresAt,string protoVersion)";

    /** The budget struct (issue 28): a mandate with a budget signs {@link #MANDATE_WITH_BUDGET_TYPE}. */
    static final String BUDGET_TYPE = "Budget(string amount,string currency,string maxPerCharge,string period)";
    /** {@link #MANDATE_TYPE} plus the member {@code Budget budget}, then the referenced type (EIP-712 encodeType). */
    static final String MANDATE_WITH_BUDGET_TYPE = MANDATE_TYPE.substring(0, MANDATE_TYPE.length() - 1) + ",Budget budget)"
            + BUDGET_TYPE;

    private static final HexFormat HEX = HexFormat.of();
    /** secp256k1 group order / 2: signatures with a higher s are the malleable twin (EIP-2) and are refused. */
    private static final BigInteger HALF_N = Sign.CURVE_PARAMS.getN().shiftRight(1);

    private Eip712Mandate() {
    }

    /** The values a wallet signs. */
    public record Message(String id, String proposer, String counterparty, String scope, String termsHash,
            String expiresAt, String protoVersion) {
    }

    /** The domain: which network and anchor contract the signature is bound to. */
    public record Domain(long chainId, String verifyingContract) {
    }

    /**
     * A signed budget as the wallets see it: decimal strings of USDC as sent, the ISO 8601 period; an absent
     * {@code maxPerCharge} or {@code period} is the empty string.
     */
    public record Budget(String amount, String currency, String maxPerCharge, String period) {

        public static Budget of(String amount, String currency, String maxPerCharge, String period) {
            return new Budget(amount, currency, maxPerCharge == null ? "" : maxPerCharge, period == null ? "" : period);
        }
    }

    /** {@code 0x} + hex of the EIP-712 digest of a mandate with {@code budget} (null: {@link #digestHex(Domain, Message)}). */
    public static String digestHex(Domain domain, Message message, Budget budget) {
        return "0x" + HEX.formatHex(digest(domain, message, budget));
    }

    /** The digest of a mandate with {@code budget}; null gives exactly {@link #digest(Domain, Message)}. */
    public static byte[] digest(Domain domain, Message message, Budget budget) {
        if (budget == null) {
            return digest(domain, message);
        }
        byte[] out = new byte[66];
        out[0] = 0x19;
        out[1] = 0x01;
        System.arraycopy(domainSeparator(domain), 0, out, 2, 32);
        System.arraycopy(hashStruct(message, budget), 0, out, 34, 32);
        return Hash.sha3(out);
    }

    static byte[] hashStruct(Message m, Budget b) {
        byte[] budgetHash = Hash.sha3(concat(typeHash(BUDGET_TYPE), strHash(b.amount()), strHash(b.currency()),
                strHash(b.maxPerCharge()), strHash(b.period())));
        return Hash.sha3(concat(typeHash(MANDATE_WITH_BUDGET_TYPE), strHash(m.id()), strHash(m.proposer()),
                strHash(m.counterparty()), strHash(m.scope()), HEX.parseHex(m.termsHash().substring(2)),
                strHash(m.expiresAt()), strHash(m.protoVersion()), budgetHash));
    }

    /** The typed data of a mandate with {@code budget} (null: {@link #typedData(Domain, Message)}). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> typedData(Domain d, Message m, Budget budget) {
        Map<String, Object> out = typedData(d, m);
        if (budget == null) {
            return out;
        }
        addBudgetType((Map<String, Object>) out.get("types"), PRIMARY_TYPE);
        ((Map<String, Object>) out.get("message")).put("budget", budgetMessage(budget));
        return out;
    }

    /** Adds the member {@code budget} to {@code primaryType}'s fields in {@code types}, and the type {@code Budget}. */
    @SuppressWarnings("unchecked")
    static void addBudgetType(Map<String, Object> types, String primaryType) {
        List<Map<String, String>> fields = new java.util.ArrayList<>((List<Map<String, String>>) types.get(primaryType));
        fields.add(field("budget", "Budget"));
        types.put(primaryType, fields);
        types.put("Budget", List.of(field("amount", "string"), field("currency", "string"),
                field("maxPerCharge", "string"), field("period", "string")));
    }

    /** The member {@code budget} of a typed data message. */
    static Map<String, Object> budgetMessage(Budget budget) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("amount", budget.amount());
        b.put("currency", budget.currency());
        b.put("maxPerCharge", budget.maxPerCharge());
        b.put("period", budget.period());
        return b;
    }

    public static Message message(String id, String proposer, String counterparty, String scope, String canonicalTerms,
            String expiresAt, String protoVersion) {
        return new Message(id, proposer, counterparty, scope, termsHash(canonicalTerms), expiresAt, protoVersion);
    }

    /** {@code 0x} + hex keccak-256 of the canonical terms text. */
    public static String termsHash(String canonicalTerms) {
        return "0x" + HEX.formatHex(Hash.sha3(canonicalTerms.getBytes(StandardCharsets.UTF_8)));
    }

    /** {@code 0x} + hex of the EIP-712 digest. */
    public static String digestHex(Domain domain, Message message) {
        return "0x" + HEX.formatHex(digest(domain, message));
    }

    public static byte[] digest(Domain domain, Message message) {
        byte[] out = new byte[66];
        out[0] = 0x19;
        out[1] = 0x01;
        System.arraycopy(domainSeparator(domain), 0, out, 2, 32);
        System.arraycopy(hashStruct(message), 0, out, 34, 32);
        return Hash.sha3(out);
    }

    static byte[] domainSeparator(Domain d) {
        return Hash.sha3(concat(typeHash(DOMAIN_TYPE), strHash(DOMAIN_NAME), strHash(DOMAIN_VERSION),
                uint256(BigInteger.valueOf(d.chainId())), address(d.verifyingContract())));
    }

    static byte[] hashStruct(Message m) {
        return Hash.sha3(concat(typeHash(MANDATE_TYPE), strHash(m.id()), strHash(m.proposer()), strHash(m.counterparty()),
                strHash(m.scope()), HEX.parseHex(m.termsHash().substring(2)), strHash(m.expiresAt()),
                strHash(m.protoVersion())));
    }

    /**
     * The signature as stored and published: lowercase hex with {@code v} as 27/28. Some signers (hardware
     * wallets, raw secp256k1 libraries) send the recovery id 0/1 as {@code v}; it recovers the same address,
     * and is normalised to 27/28 so that every copy of the signature (the proof, the receipt, webhooks) is the
     * one form every EIP-712 tool accepts (issue 33). Anything else is returned lowercased, unchanged.
     */
    public static String normalized(String signatureHex) {
        String sig = signatureHex.toLowerCase(Locale.ROOT);
        if (sig.matches("0x[0-9a-f]{130}")) {
            String v = sig.substring(130);
            if (v.equals("00")) {
                return sig.substring(0, 130) + "1b";
            }
            if (v.equals("01")) {
                return sig.substring(0, 130) + "1c";
            }
        }
        return sig;
    }

    /**
     * The address (lowercase {@code 0x} hex) that produced {@code signatureHex} over {@code digest}.
     *
     * @throws IllegalArgumentException with the reason, for a signature that is not 65 bytes of hex, has a
     *         v other than 27/28 (or 0/1), a high s, or recovers nothing
     */
    public static String recover(byte[] digest, String signatureHex) {
        if (signatureHex == null || !signatureHex.matches("0x[0-9a-fA-F]{130}")) {
            throw new IllegalArgumentException("signature must be 0x followed by 130 hex digits (r, s, v)");
        }
        byte[] sig = HEX.parseHex(signatureHex.substring(2).toLowerCase(Locale.ROOT));
        int v = sig[64] & 0xff;
        int recId = v >= 27 ? v - 27 : v;
        if (recId != 0 && recId != 1) {
            throw new IllegalArgumentException("signature v must be 27 or 28 (0 or 1 is taken as 27 or 28)");
        }
        BigInteger r = new BigInteger(1, Arrays.copyOfRange(sig, 0, 32));
        BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig, 32, 64));
        if (r.signum() == 0 || s.signum() == 0 || r.compareTo(Sign.CURVE_PARAMS.getN()) >= 0) {
            throw new IllegalArgumentException("signature r or s is out of range");
        }
        if (s.compareTo(HALF_N) > 0) {
            throw new IllegalArgumentException("signature s is in the upper half of the curve order (EIP-2)");
        }
        BigInteger key = Sign.recoverFromSignature(recId, new ECDSASignature(r, s), digest);
        if (key == null) {
            throw new IllegalArgumentException("signature recovers no public key");
        }
        return "0x" + Keys.getAddress(key);
    }

    /** The typed data as {@code eth_signTypedData_v4} and viem take it, for the proof document. */
    public static Map<String, Object> typedData(Domain d, Message m) {
        Map<String, Object> domain = new LinkedHashMap<>();
        domain.put("name", DOMAIN_NAME);
        domain.put("version", DOMAIN_VERSION);
        domain.put("chainId", d.chainId());
        domain.put("verifyingContract", d.verifyingContract());
        Map<String, Object> types = new LinkedHashMap<>();
        types.put("EIP712Domain", List.of(field("name", "string"), field("version", "string"),
                field("chainId", "uint256"), field("verifyingContract", "address")));
        types.put(PRIMARY_TYPE, List.of(field("id", "string"), field("proposer", "string"),
                field("counterparty", "string"), field("scope", "string"), field("termsHash", "bytes32"),
                field("expiresAt", "string"), field("protoVersion", "string")));
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", m.id());
        message.put("proposer", m.proposer());
        message.put("counterparty", m.counterparty());
        message.put("scope", m.scope());
        message.put("termsHash", m.termsHash());
        message.put("expiresAt", m.expiresAt());
        message.put("protoVersion", m.protoVersion());
        return typedData(domain, types, PRIMARY_TYPE, message);
    }

    /** The typed data document: domain, types, primary type and message, in that order. */
    static Map<String, Object> typedData(Object domain, Map<String, Object> types, String primaryType, Map<String, Object> message) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("domain", domain);
        out.put("types", types);
        out.put("primaryType", primaryType);
        out.put("message", message);
        return out;
    }

    static Map<String, String> field(String name, String type) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("type", type);
        return f;
    }

    private static byte[] typeHash(String type) {
        return Hash.sha3(type.getBytes(StandardCharsets.US_ASCII));
    }

    private static byte[] strHash(String value) {
        return Hash.sha3(value.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] uint256(BigInteger v) {
        byte[] raw = v.toByteArray();
        byte[] out = new byte[32];
        int n = Math.min(raw.length, 32);
        System.arraycopy(raw, raw.length - n, out, 32 - n, n);
        return out;
    }

    private static byte[] address(String hex) {
        byte[] a = HEX.parseHex(hex.substring(2).toLowerCase(Locale.ROOT));
        byte[] out = new byte[32];
        System.arraycopy(a, 0, out, 12, 20);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
