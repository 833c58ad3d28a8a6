package dev.agentpay.discovery.documents.service;

import dev.agentpay.discovery.documents.domain.StaticDocument;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every published document by its path, rendered ahead of time; a GET is a map look-up. Documents
 * that change (trust signals, benchmark) are replaced whole when they are rebuilt.
 */
@ApplicationScoped
public class DocumentStore {

    private final Map<String, StaticDocument> byPath = new ConcurrentHashMap<>();

    public void put(String path, StaticDocument document) {
        byPath.put(path, document);
    }

    public Optional<StaticDocument> get(String path) {
        return Optional.ofNullable(byPath.get(path));
    }
}
