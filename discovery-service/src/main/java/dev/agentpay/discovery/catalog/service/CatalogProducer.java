package dev.agentpay.discovery.catalog.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.discovery.catalog.domain.Catalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Loads the catalog once; a malformed catalog stops the start rather than publishing wrong documents. */
@ApplicationScoped
public class CatalogProducer {

    @Produces
    @Singleton
    Catalog catalog(ObjectMapper mapper) {
        return Catalog.load(mapper);
    }
}
