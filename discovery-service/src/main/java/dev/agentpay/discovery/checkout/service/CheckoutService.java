package dev.agentpay.discovery.checkout.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.discovery.checkout.domain.CheckoutView;
import dev.agentpay.discovery.client.InvoiceServiceClient;
import dev.agentpay.discovery.pages.config.PagesConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.UUID;

/**
 * The payment page's data: the invoice as invoice-service's public capability read gives it
 * ({@code GET /v1/invoices/{id}/pay}, no key: the id is the capability). Never a database.
 */
@ApplicationScoped
public class CheckoutService {

    @Inject
    InvoiceServiceClient invoices;

    @Inject
    PagesConfig pages;

    /** The invoice's view; empty when no invoice has this id (malformed ids included: nothing is asked upstream). */
    public Uni<Optional<CheckoutView>> view(String id) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(Optional.empty());
        }
        if (!uuid.toString().equalsIgnoreCase(id)) {
            return Uni.createFrom().item(Optional.empty());
        }
        return invoices.pay(uuid).map(r -> {
            if (r.status() == 404) {
                return Optional.<CheckoutView>empty();
            }
            if (r.status() != 200 || r.body() == null || !r.body().path("data").isObject()) {
                throw new dev.agentpay.discovery.domain.UpstreamUnavailableException(InvoiceServiceClient.SERVICE,
                        new IllegalStateException("status " + r.status()));
            }
            return Optional.of(toView(r.body().path("data")));
        });
    }

    CheckoutView toView(JsonNode inv) {
        JsonNode pd = inv.path("paymentDetails");
        String chain = pd.path("chain").asText();
        String uri = text(pd.path("paymentUri"));
        return new CheckoutView(inv.path("id").asText(), inv.path("invoiceNumber").asLong(), text(inv.path("description")),
                inv.path("amount").asText(), inv.path("currency").asText("USDC"), chain, CheckoutView.chainLabel(chain),
                pd.path("networkId").asText(), !"solana".equals(chain), pd.path("paymentAddress").asText(),
                pd.path("usdcAddress").asText(), pd.path("payableAtomic").asText(), text(pd.path("memo")), uri,
                QrSvg.of(uri, "QR code of the payment link"), text(inv.path("expiresAt")),
                CheckoutView.shownTime(text(inv.path("expiresAt"))), CheckoutView.status(inv, txUrlPrefix(chain)));
    }

    public String txUrlPrefix(String chain) {
        return pages.explorerTxUrl().get(chain);
    }

    static String text(JsonNode n) {
        return n.isMissingNode() || n.isNull() || n.asText().isBlank() ? null : n.asText();
    }
}
