package dev.agentpay.commons.auth;

import dev.agentpay.commons.error.ApiException;
import jakarta.enterprise.context.RequestScoped;

/** The partner of the current request, set by {@link AuthFilters}. */
@RequestScoped
public class CurrentPartner {

    private Partner partner;

    void set(Partner partner) {
        this.partner = partner;
    }

    public Partner get() {
        if (partner == null) {
            throw ApiException.unauthorized("missing or invalid x-api-key");
        }
        return partner;
    }

    public String id() {
        return get().id();
    }
}
