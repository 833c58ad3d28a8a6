package dev.agentpay.mandate.signing;

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

    /** Whether {@code party} is written as a CAIP-10 eip155 account (valid or not). */
    public static boolean looksLikeWallet(String party) {
        return party != null && party.startsWith("eip155:");
    }
}
