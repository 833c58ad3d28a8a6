package dev.agentpay.mandate.oauth.service;

import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.mandate.partner.domain.PartnerRecord;
import dev.agentpay.mandate.oauth.repository.OAuthRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Writes a partner's registry record ({@link PartnerEvent} on the compacted {@code partners} topic, through the
 * outbox in the caller's transaction): its key hash, the key's scopes and its active OAuth clients with their
 * scopes, so that every service's registry can check API keys and access tokens alike.
 */
@ApplicationScoped
public class RegistryRecord {

    @Inject
    Outbox outbox;

    @Inject
    OAuthRepository repo;

    public Uni<Void> publish(SqlConnection conn, PartnerRecord p) {
        boolean active = PartnerEvent.ACTIVE.equals(p.status());
        List<String> hashes = active ? List.of(p.apiKeyHash()) : List.of();
        return repo.keyScopes(conn, p.id()).flatMap(keyScopes -> repo.clientsOf(conn, p.id()).flatMap(clients -> {
            List<PartnerEvent.OAuthClient> grants = clients.stream().filter(c -> active && PartnerEvent.ACTIVE.equals(c.status()))
                    .map(c -> new PartnerEvent.OAuthClient(c.clientId(), c.scopes())).toList();
            return outbox.append(conn, new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, p.id(), p.id(), p.updatedAt(),
                    PartnerEvent.SCHEMA_VERSION), p.name(), p.status(), hashes, keyScopes,
                    grants.isEmpty() ? null : grants));
        }));
    }
}
