package dev.agentpay.mandate.partner.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.partner.domain.PartnerRules;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.jboss.logging.Logger;
import dev.agentpay.mandate.idempotency.domain.ApiResult;

/**
 * Imports the partners of {@code mandate.partners-bootstrap-file} at start-up, so a fresh installation
 * starts with known partners. Each entry goes through the same idempotent import as
 * {@code PUT /admin/partners/{id}}; a file that breaks a rule stops the start (an operator must see
 * it, not discover missing partners later), and no message ever quotes a key or secret.
 */
@ApplicationScoped
public class PartnerBootstrap {

    private static final Logger LOG = Logger.getLogger(PartnerBootstrap.class);
    private static final Set<String> FIELDS = Set.of("id", "name", "api_key", "api_key_hash", "signing_secret", "status");

    /** One validated entry of the file. */
    record Entry(String id, String name, String keyHash, String signingSecret, String status) {
    }

    @Inject
    MandateConfig config;

    @Inject
    PartnerService partners;

    @Inject
    ObjectMapper json;

    void onStart(@Observes StartupEvent ev) {
        config.partnersBootstrapFile().filter(f -> !f.isBlank()).ifPresent(f -> run(Path.of(f)));
    }

    /** Reads, checks and imports the file; returns how many partners it created (a repeat creates none). */
    public int run(Path file) {
        List<Entry> entries = read(file);
        int created = 0;
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            try {
                ApiResult r = partners.importPartnerByHash(e.id(), e.name(), e.keyHash(), e.signingSecret(), e.status())
                        .await().atMost(Duration.ofSeconds(30));
                created += r.status() == 201 ? 1 : 0;
            } catch (ApiException ex) {
                throw new IllegalStateException("partner bootstrap file " + file + ": partners[" + i + "] (" + e.id()
                        + "): " + ex.getMessage());
            }
        }
        LOG.infof("partner bootstrap %s: %d partners, %d new", file, entries.size(), created);
        return created;
    }

    List<Entry> read(Path file) {
        JsonNode root;
        try {
            root = json.readTree(Files.readString(file));
        } catch (IOException e) {
            // The parser's message may quote the file's content (secrets): name only the failure's kind.
            throw new IllegalStateException("partner bootstrap file " + file + " is not readable JSON ("
                    + e.getClass().getSimpleName() + ")");
        }
        JsonNode list = root == null ? null : root.get("partners");
        if (list == null || !list.isArray()) {
            throw new IllegalStateException("partner bootstrap file " + file + ": expected {\"partners\": [...]}");
        }
        List<Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Set<String> hashes = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String where = "partner bootstrap file " + file + ": partners[" + i + "]";
            try {
                Entry e = entry(list.get(i));
                if (!ids.add(e.id())) {
                    throw ApiException.invalidField("id", "appears twice in the file");
                }
                if (!hashes.add(e.keyHash())) {
                    throw ApiException.invalidField("api_key", "is given to two partners");
                }
                entries.add(e);
            } catch (ApiException e) {
                throw new IllegalStateException(where + ": " + e.getMessage());
            }
        }
        return entries;
    }

    private static Entry entry(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw ApiException.invalidField("entry", "must be an object");
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                throw ApiException.invalidField(f, "is not a known field");
            }
        }
        String id = text(n, "id");
        PartnerRules.checkId(id);
        String name = text(n, "name");
        if (name == null || name.isBlank() || name.length() > PartnerRules.NAME_MAX) {
            throw ApiException.invalidField("name", "must be 1 to " + PartnerRules.NAME_MAX + " characters");
        }
        String key = text(n, "api_key");
        String hash = text(n, "api_key_hash");
        if ((key == null) == (hash == null)) {
            throw ApiException.invalidField("api_key", "give exactly one of api_key and api_key_hash");
        }
        if (key != null && !ApiKeys.wellFormed(key)) {
            throw ApiException.invalidField("api_key", "must be sk_ followed by 64 lowercase hex characters");
        }
        String keyHash = key != null ? ApiKeys.hash(key) : hash;
        PartnerRules.checkKeyHash(keyHash);
        String secret = text(n, "signing_secret");
        PartnerRules.checkSecret(secret);
        return new Entry(id, name, keyHash, secret, PartnerRules.status(text(n, "status")));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw ApiException.invalidField(field, "must be a string");
        }
        return v.asText();
    }
}
