package dev.agentpay.commons;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.Partner;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.error.ErrorBody;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.events.Topics;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pure pieces of the shared library; the outbox and consumer are exercised by every service's tests. */
class SharedPiecesTest {

    @Test
    void apiKeysHaveTheDocumentedShapeAndAreHashed() {
        String key = ApiKeys.generate();
        assertThat(key).matches("sk_[0-9a-f]{64}");
        assertThat(ApiKeys.wellFormed(key)).isTrue();
        assertThat(ApiKeys.wellFormed("sk_" + "A".repeat(64))).isFalse();
        assertThat(ApiKeys.wellFormed(key + "0")).isFalse();
        assertThat(ApiKeys.hash(key)).matches("[0-9a-f]{64}").isNotEqualTo(key).isEqualTo(ApiKeys.hash(key));
        assertThat(ApiKeys.constantTimeEquals("abc", "abc")).isTrue();
        assertThat(ApiKeys.constantTimeEquals("abc", "abd")).isFalse();
        assertThat(ApiKeys.constantTimeEquals(null, "abd")).isFalse();
    }

    @Test
    void registryAuthenticatesActiveKeysAndForgetsRotatedAndRevokedOnes() {
        PartnerRegistry registry = new PartnerRegistry();
        String k1 = ApiKeys.generate();
        String k2 = ApiKeys.generate();
        registry.apply(partner("p1", PartnerEvent.ACTIVE, k1));
        assertThat(registry.authenticate(k1)).contains(new Partner("p1", "p1"));
        assertThat(registry.authenticate(k2)).isEmpty();
        registry.apply(partner("p1", PartnerEvent.ACTIVE, k2)); // rotation replaces the key
        assertThat(registry.authenticate(k1)).isEmpty();
        assertThat(registry.authenticate(k2)).isPresent();
        registry.apply(partner("p1", PartnerEvent.REVOKED, k2));
        assertThat(registry.authenticate(k2)).isEmpty();
        assertThat(registry.authenticate("not-a-key")).isEqualTo(Optional.empty());
    }

    @Test
    void eventsSurviveTheWireEncoding() {
        MandateEvent e = new MandateEvent(EventHeader.of("mandate.signed_by_both", "mnd_1", "p1", Instant.parse("2026-01-01T00:00:00.123Z"),
                MandateEvent.SCHEMA_VERSION), "tr_1", "signed_by_proposer", "signed_by_both", "0xab",
                JsonNodeFactory.instance.objectNode().put("id", "mnd_1"));
        assertThat(EventCodec.decode(EventCodec.encode(e), MandateEvent.class)).isEqualTo(e);
        ChainTransferEvent t = new ChainTransferEvent(EventHeader.of(ChainTransferEvent.DETECTED,
                ChainTransferEvent.transferId("base", "0x1", 3), null, Instant.now(), 1), "base", "0x1", 3, 10, "0xb",
                "0xf", "0xt", new BigInteger("123456789012345678901234567890"), "0xusdc", null, "evm-detector");
        assertThat(EventCodec.decode(EventCodec.encode(t), ChainTransferEvent.class)).isEqualTo(t);
        assertThat(e.topic()).isEqualTo(Topics.MANDATE_EVENTS);
        assertThatThrownBy(() -> EventCodec.decode("{not json", MandateEvent.class)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyTopicIsDeclaredOnceAndThePartnerRegistryIsCompacted() {
        assertThat(Topics.ALL).extracting(Topics.TopicSpec::name).doesNotHaveDuplicates()
                .contains(Topics.MANDATE_EVENTS, Topics.ANCHOR_RECEIPTS, Topics.CHAIN_TRANSFERS, Topics.INVOICE_EVENTS,
                        Topics.PLATFORM_EVENTS, Topics.PARTNERS);
        assertThat(Topics.ALL).filteredOn(Topics.TopicSpec::compacted).extracting(Topics.TopicSpec::name).containsExactly(Topics.PARTNERS);
    }

    @Test
    void errorsCarryTheEnvelopeShape() {
        ApiException e = ApiException.invalidField("amount", "must be greater than 0");
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.code()).isEqualTo("validation_error");
        assertThat(e.getMessage()).isEqualTo("amount: must be greater than 0");
        assertThat(ErrorBody.of("x", "y")).isEqualTo(new ErrorBody(false, new ErrorBody.Detail("x", "y")));
    }

    private static PartnerEvent partner(String id, String status, String key) {
        return new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, id, id, Instant.now(), 1), id, status, List.of(ApiKeys.hash(key)));
    }
}
