package dev.agentpay.mandate.mandates.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A request that carries no body is a JSON request whatever its {@code Content-Type} says (or without one):
 * the body of start and complete is optional, and {@code POST /v1/mandates/{id}/complete} with nothing in it
 * binds no request record, as before typed binding. A body of another declared type is still refused (415).
 */
public class JsonByDefault {

    @ServerRequestFilter(preMatching = true)
    public void emptyBodyIsJson(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        boolean empty = length == null ? request.getHeaderString("Transfer-Encoding") == null : "0".equals(length.trim());
        if (empty) {
            request.getHeaders().putSingle(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON);
        }
    }
}
