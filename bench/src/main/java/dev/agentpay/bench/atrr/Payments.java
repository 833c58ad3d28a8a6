package dev.agentpay.bench.atrr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

/**
 * Builds x402 v1 "exact" payments for EVM networks, as the x402-flow reference describes: an EIP-3009
 * TransferWithAuthorization signed under the token's EIP-712 domain, base64 of the payload JSON. Public
 * for the fault suite, which pays x402 calls the same way.
 */
public final class Payments {

    static final Map<String, Long> CHAIN_IDS = Map.of(
            "base", 8453L, "base-sepolia", 84532L, "polygon", 137L, "polygon-amoy", 80002L,
            "arbitrum", 42161L, "skale", 1187947933L, "avalanche", 43114L, "avalanche-fuji", 43113L);

    private static final SecureRandom RANDOM = new SecureRandom();

    private Payments() {
    }

    static Long chainId(String network) {
        if (network == null) {
            return null;
        }
        if (network.startsWith("eip155:")) {
            return Long.parseLong(network.substring(7));
        }
        return CHAIN_IDS.get(network);
    }

    /** The first requirement this harness can pay (scheme exact on a known EVM network), or null. */
    public static JsonNode payable(JsonNode paymentRequired) {
        for (JsonNode r : paymentRequired.path("accepts")) {
            if ("exact".equals(r.path("scheme").asText()) && chainId(r.path("network").asText()) != null) {
                return r;
            }
        }
        return null;
    }

    public static String pay(ObjectMapper mapper, JsonNode req, String privateKey) throws Exception {
        Credentials payer = Credentials.create(privateKey);
        long now = System.currentTimeMillis() / 1000;
        byte[] nonceBytes = new byte[32];
        RANDOM.nextBytes(nonceBytes);
        String nonce = "0x" + HexFormat.of().formatHex(nonceBytes);
        String validAfter = String.valueOf(now - 60);
        String validBefore = String.valueOf(now + Math.max(60, req.path("maxTimeoutSeconds").asLong(60)));
        String value = req.get("maxAmountRequired").asText();

        ObjectNode typed = mapper.createObjectNode();
        ObjectNode types = typed.putObject("types");
        types.putArray("EIP712Domain")
                .add(field(mapper, "name", "string")).add(field(mapper, "version", "string"))
                .add(field(mapper, "chainId", "uint256")).add(field(mapper, "verifyingContract", "address"));
        types.putArray("TransferWithAuthorization")
                .add(field(mapper, "from", "address")).add(field(mapper, "to", "address")).add(field(mapper, "value", "uint256"))
                .add(field(mapper, "validAfter", "uint256")).add(field(mapper, "validBefore", "uint256")).add(field(mapper, "nonce", "bytes32"));
        typed.put("primaryType", "TransferWithAuthorization");
        typed.putObject("domain")
                .put("name", req.path("extra").path("name").asText("USD Coin"))
                .put("version", req.path("extra").path("version").asText("2"))
                .put("chainId", chainId(req.get("network").asText()))
                .put("verifyingContract", req.get("asset").asText());
        ObjectNode auth = typed.putObject("message");
        auth.put("from", payer.getAddress());
        auth.put("to", req.get("payTo").asText());
        auth.put("value", value);
        auth.put("validAfter", validAfter);
        auth.put("validBefore", validBefore);
        auth.put("nonce", nonce);

        byte[] digest = new StructuredDataEncoder(typed.toString()).hashStructuredData();
        Sign.SignatureData sig = Sign.signMessage(digest, payer.getEcKeyPair(), false);
        String signature = "0x" + HexFormat.of().formatHex(sig.getR()) + HexFormat.of().formatHex(sig.getS())
                + HexFormat.of().formatHex(sig.getV());

        ObjectNode payment = mapper.createObjectNode();
        payment.put("x402Version", 1);
        payment.put("scheme", "exact");
        payment.put("network", req.get("network").asText());
        ObjectNode payload = payment.putObject("payload");
        payload.put("signature", signature);
        payload.set("authorization", auth.deepCopy());
        return Base64.getEncoder().encodeToString(payment.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectNode field(ObjectMapper m, String name, String type) {
        return m.createObjectNode().put("name", name).put("type", type);
    }
}
