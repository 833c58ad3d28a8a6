package dev.agentpay.invoice.x402.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * CORS for the x402 endpoints only ({@code /api/x402/**} and {@code /v1/invoices/{id}/pay}): any origin (no cookies are involved, the payment is the credential),
 * the x402 request headers allowed and the x402 response headers exposed so browser clients can read
 * the challenge and the settlement receipt.
 */
public class X402Cors {

    static final String EXPOSE = "X-PAYMENT-RESPONSE, PAYMENT-RESPONSE, PAYMENT-REQUIRED";
    static final String ALLOW_HEADERS = "Content-Type, X-PAYMENT, PAYMENT-SIGNATURE, Access-Control-Expose-Headers";

    @ServerResponseFilter
    public void cors(ContainerRequestContext req, ContainerResponseContext res) {
        String path = req.getUriInfo().getPath();
        if (!path.startsWith("/api/x402") && !(path.startsWith("/v1/invoices/") && path.endsWith("/pay"))) {
            return;
        }
        var h = res.getHeaders();
        h.putSingle("Access-Control-Allow-Origin", "*");
        h.putSingle("Access-Control-Expose-Headers", EXPOSE);
        if ("OPTIONS".equals(req.getMethod())) {
            h.putSingle("Access-Control-Allow-Methods", path.startsWith("/api/x402") ? "POST, OPTIONS" : "GET, POST, OPTIONS");
            h.putSingle("Access-Control-Allow-Headers", ALLOW_HEADERS);
            h.putSingle("Access-Control-Max-Age", "600");
        }
    }
}
