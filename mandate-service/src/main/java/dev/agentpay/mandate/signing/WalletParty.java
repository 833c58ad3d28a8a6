package dev.agentpay.mandate.signing;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.web3j.crypto.Keys;

/**
 * A party written as a CAIP-10 account on an EVM chain, {@code eip155:<chainId>:<address>}: such a party
 * is a wallet and signs with EIP-712. The address may be all lowercase, all uppercase, or EIP-55
 * checksummed; a mixed-case address with a wrong checksum is refused (it is most likely a typo).
 */
public record WalletParty(long chainId, String address) {

    private static final Pattern CAIP10 = Pattern.compile("eip155:([1-9][0-9]{0,17}):(0x[0-9a-fA-F]{40})");

    /** The wallet named by {@code party}, or null when {@code party} is not written as a CAIP-10 eip155 account. */
    public static WalletParty parse(String party) {
        if (party == null || !party.startsWith("eip155:")) {
            return null;
        }
        Matcher m = CAIP10.matcher(party);
        if (!m.matches()) {
            throw new IllegalArgumentException("must be a CAIP-10 account eip155:<chain id>:0x<40 hex digits>");
        }
        String address = m.group(2);
        String hex = address.substring(2);
        boolean mixed = !hex.equals(hex.toLowerCase(Locale.ROOT)) && !hex.equals(hex.toUpperCase(Locale.ROOT));
        if (mixed && !Keys.toChecksumAddress(address).equals(address)) {
            throw new IllegalArgumentException("address " + address + " has a wrong EIP-55 checksum");
        }
        return new WalletParty(Long.parseLong(m.group(1)), "0x" + hex.toLowerCase(Locale.ROOT));
    }

    /**
     * Why {@code party} is refused as a wallet look-alike, or null when it is not one: a party id that, after
     * NFKC folding, trimming and lowercasing, starts with {@code eip155:} must be a valid CAIP-10 account as
     * written ({@link #parse}). Otherwise {@code "EIP155:8453:0x…"}, {@code " eip155:…"}, a fullwidth
     * {@code ｅip155:…} or a fullwidth colon would be taken as an opaque HMAC party that a partner signs with
     * its own secret, while a reader sees a wallet (issue 33).
     */
    public static String lookAlikeProblem(String party) {
        if (party == null) {
            return null;
        }
        String folded = Normalizer.normalize(party, Normalizer.Form.NFKC).strip().toLowerCase(Locale.ROOT);
        if (!folded.startsWith("eip155:")) {
            return null;
        }
        if (!party.startsWith("eip155:")) {
            return "reads as a wallet but is not written as one: a wallet party is a CAIP-10 account written exactly "
                    + "eip155:<chain id>:0x<40 hex digits> (lowercase ASCII \"eip155:\", no spaces or lookalike characters)";
        }
        try {
            parse(party);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** Whether {@code party} is written as a CAIP-10 eip155 account (valid or not). */
    public static boolean looksLikeWallet(String party) {
        return party != null && party.startsWith("eip155:");
    }
}
