package dev.agentpay.invoice.x402.rest;

import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * What every paid x402 call reads besides its body ({@code @BeanParam}): the payment, in {@code X-PAYMENT}
 * (x402 v1) or {@code PAYMENT-SIGNATURE} (v2), and what names the public URL the payer signs for. The payment
 * headers are documented as the operations' security schemes, not as parameters.
 */
public class PaidCall {

    @Parameter(hidden = true) @HeaderParam("X-PAYMENT") public String payment;
    @Parameter(hidden = true) @HeaderParam("PAYMENT-SIGNATURE") public String signature;
    @Parameter(hidden = true) @HeaderParam("X-Forwarded-Proto") String forwardedProto;
    @Parameter(hidden = true) @HeaderParam("X-Forwarded-Host") String forwardedHost;
    @Context UriInfo uri;

    /** The resource URL of this call ({@link ResourceUrls}). */
    public String resourceUrl(ResourceUrls urls) {
        return urls.of(uri, forwardedProto, forwardedHost);
    }
}
