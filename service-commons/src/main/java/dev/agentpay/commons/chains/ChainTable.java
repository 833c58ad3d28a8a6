package dev.agentpay.commons.chains;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The resolved chain table: {@link ChainsConfig} over the defaults of {@link Chain}. */
@ApplicationScoped
public class ChainTable {

    /** One chain with every setting resolved. */
    public record Entry(Chain chain, boolean enabled, String networkId, String usdcAddress,
            Optional<String> paymentAddress, Optional<String> rpcUrl, int confirmations, Duration pollInterval,
            int maxBlockRange, Optional<String> depositFactoryAddress, Optional<String> escrowAddress, String usdcEip712Name,
            String usdcEip712Version) {

        public String name() {
            return chain.value();
        }

        /**
         * Takes invoices: enabled, with a seller wallet and, on an EVM chain, the deposit factory that
         * gives every invoice its own payment address.
         */
        public boolean acceptsInvoices() {
            return enabled && paymentAddress.isPresent() && (chain.kind() != Chain.Kind.EVM || depositFactoryAddress.isPresent());
        }

        /** Can be watched: enabled, with a seller wallet and an RPC endpoint. */
        public boolean watchable() {
            return acceptsInvoices() && rpcUrl.isPresent();
        }
    }

    private final List<Entry> entries;

    // A constructor, not @PostConstruct: the table is the bean's whole state, resolved once into a final field.
    @Inject
    public ChainTable(ChainsConfig config) {
        this.entries = Arrays.stream(Chain.values()).map(c -> resolve(c, settings(config, c))).toList();
    }

    public List<Entry> all() {
        return entries;
    }

    public Entry get(Chain chain) {
        return entries.get(chain.ordinal());
    }

    private static ChainsConfig.Settings settings(ChainsConfig config, Chain chain) {
        return switch (chain) {
            case BASE -> config.base();
            case SKALE -> config.skale();
            case POLYGON -> config.polygon();
            case ARBITRUM -> config.arbitrum();
            case SOLANA -> config.solana();
        };
    }

    private static Entry resolve(Chain c, ChainsConfig.Settings s) {
        Chain.Defaults d = c.defaults();
        return new Entry(c, s.enabled(),
                nonBlank(s.networkId()).orElse(d.networkId()),
                nonBlank(s.usdcAddress()).orElse(d.usdcAddress()),
                nonBlank(s.paymentAddress()),
                nonBlank(s.rpcUrl()),
                s.confirmations().orElse(d.confirmations()),
                s.pollInterval().orElse(d.pollInterval()),
                s.maxBlockRange(),
                nonBlank(s.depositFactoryAddress()),
                c.kind() == Chain.Kind.EVM ? nonBlank(s.escrowAddress()) : Optional.empty(),
                nonBlank(s.usdcEip712Name()).orElse(c == Chain.SKALE ? "Bridged USDC (SKALE Bridge)" : "USD Coin"),
                nonBlank(s.usdcEip712Version()).orElse("2"));
    }

    private static Optional<String> nonBlank(Optional<String> v) {
        return v.map(String::trim).filter(x -> !x.isEmpty());
    }
}
