package dev.agentpay.mandate.mandates.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.Test;

/** A refusal that carries a number the client acts on: the error envelope with that field after code and message. */
class ResponsesTest {

    @Test
    void anErrorWithOneMoreFieldIsTheEnvelopeWithThatFieldLast() {
        var r = Responses.error(409, "budget_exceeded", "the charge is over what remains", "remaining", "5");
        assertThat(r.getStatus()).isEqualTo(409);
        assertThat(r.getMediaType()).isEqualTo(MediaType.APPLICATION_JSON_TYPE);
        assertThat(r.getEntity()).isEqualTo("{\"success\":false,\"error\":{\"code\":\"budget_exceeded\","
                + "\"message\":\"the charge is over what remains\",\"remaining\":\"5\"}}");
    }
}
