package dev.agentpay.discovery.domain;

import com.fasterxml.jackson.databind.JsonNode;

/** What another service answered: HTTP status and JSON body ({@code null} when the body was not JSON). */
public record UpstreamResponse(int status, JsonNode body) {

    public boolean ok() {
        return status >= 200 && status < 300;
    }
}
