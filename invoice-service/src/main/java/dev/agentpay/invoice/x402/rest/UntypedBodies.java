package dev.agentpay.invoice.x402.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * An x402 client may POST to {@code /api/x402/*} without a {@code Content-Type} (often without a body: the
 * invoice call's fields are all optional): such a request is read as JSON, as it was when these bodies were read
 * as text. A body sent under another media type is refused (415, before any payment).
 */
public class UntypedBodies {

    @ServerRequestFilter(preMatching = true)
    public void readAsJson(ContainerRequestContext request) {
        if (request.getHeaderString(HttpHeaders.CONTENT_TYPE) == null && request.getUriInfo().getPath().startsWith("/api/x402/")) {
            request.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON);
        }
    }
}
