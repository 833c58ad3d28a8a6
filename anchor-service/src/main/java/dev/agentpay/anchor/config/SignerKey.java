package dev.agentpay.anchor.config;

/**
 * The anchor signer's private key. A distinct type so that its {@code toString} (used by config dumps,
 * exceptions and loggers) never shows the key.
 */
public final class SignerKey {

    private final String hex;

    public SignerKey(String hex) {
        String h = hex == null ? "" : hex.trim();
        if (!h.matches("(0x)?[0-9a-fA-F]{64}")) {
            throw new IllegalArgumentException("anchor.signer-key must be 32 bytes of hex");
        }
        this.hex = h.startsWith("0x") ? h : "0x" + h;
    }

    /** The key itself; only the signer may call this. */
    public String reveal() {
        return hex;
    }

    @Override
    public String toString() {
        return "SignerKey[***]";
    }

    /** Config converter; its error message never contains the value. */
    public static final class Converter implements org.eclipse.microprofile.config.spi.Converter<SignerKey> {
        @Override
        public SignerKey convert(String value) {
            return new SignerKey(value);
        }
    }
}
