package dev.agentpay.mandate.mandates.repository;

import dev.agentpay.mandate.config.MandateConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * The chains every transition is anchored on ({@code ANCHOR_CHAINS}, primary first; README "Several anchor
 * chains"). Unset: the one anchor chain, {@code ANCHOR_CHAIN_ID}. The primary chain's anchor is also the
 * transition row's {@code anchor_*}.
 */
@ApplicationScoped
public class AnchorChains {

    @Inject
    MandateConfig config;

    public List<Long> ids() {
        return config.anchorChains().filter(l -> !l.isEmpty()).map(List::copyOf)
                .orElseGet(() -> List.of(config.eip712().chainId()));
    }

    public long primary() {
        return ids().get(0);
    }
}
