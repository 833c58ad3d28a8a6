package dev.agentpay.discovery.domain;

/** Another service could not be reached or did not answer in time. */
public class UpstreamUnavailableException extends RuntimeException {

    private final String service;

    public UpstreamUnavailableException(String service, Throwable cause) {
        super(service + " unavailable: " + cause.getClass().getSimpleName(), cause, false, false);
        this.service = service;
    }

    public String service() {
        return service;
    }
}
