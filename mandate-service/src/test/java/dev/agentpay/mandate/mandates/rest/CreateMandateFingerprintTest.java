package dev.agentpay.mandate.mandates.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.mandate.config.ApiJson;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The idempotency fingerprint of a create request is the bound record as {@code ApiJson} writes it. The
 * {@code parties} member is written only when sent, so a two-party request written after the parties form
 * was added is the same text as before it (a replay across the deploy still matches its stored record).
 */
class CreateMandateFingerprintTest {

    @Test
    void aTwoPartyRequestIsWrittenAsBeforeAndThePartiesFormWithItsParties() throws Exception {
        var terms = ApiJson.MAPPER.readTree("{\"amount\":1}");
        var twoParty = new MandateApi.CreateMandateRequest("agent:a", "agent:b", "s", terms, "2030-01-01T00:00:00.000Z", null, null);
        assertThat(ApiJson.write(twoParty)).isEqualTo("{\"proposer\":\"agent:a\",\"counterparty\":\"agent:b\",\"scope\":\"s\","
                + "\"terms\":{\"amount\":1},\"expiry\":\"2030-01-01T00:00:00.000Z\",\"context\":null,\"signature_scheme\":null}");
        var parties = new MandateApi.CreateMandateRequest(null, null, "s", terms, "2030-01-01T00:00:00.000Z", null, null,
                List.of(new MandateApi.PartyRequest("agent:a", "buyer"), new MandateApi.PartyRequest("agent:b", "seller")));
        assertThat(ApiJson.write(parties)).endsWith("\"parties\":[{\"id\":\"agent:a\",\"role\":\"buyer\"},"
                + "{\"id\":\"agent:b\",\"role\":\"seller\"}]}");
    }
}
