package dev.agentpay.invoice.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.invoice.x402.service.X402Requests;
import java.util.Base64;
import java.util.List;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** invoice-service's own request parsers read JSON as every endpoint does: a repeated key at any depth is refused. */
class RequestJsonTest {

    @Test
    void invoiceBodiesWithARepeatedKeyAreInvalidJson() {
        for (String body : List.of("{\"amount\":1,\"amount\":1000}", "{\"chain\":\"base\",\"amount\":1,\"chain\":\"solana\"}")) {
            assertThatThrownBy(() -> new InvoiceRequests().parse(body)).as(body).isInstanceOf(ApiException.class)
                    .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo("invalid_json"));
        }
    }

    @Test
    void x402BodiesWithARepeatedKeyAreInvalidJson() {
        assertThatThrownBy(() -> new X402Requests().settle("{\"invoice_id\":\"6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b\","
                + "\"invoice_id\":\"00000000-0000-4000-8000-000000000000\"}"))
                .isInstanceOf(ApiException.class).satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo("invalid_json"));
    }

    @Test
    void aPaymentHeaderWithARepeatedKeyIsRefused() {
        String json = "{\"x402Version\":1,\"scheme\":\"exact\",\"network\":\"base\",\"network\":\"solana\",\"payload\":{}}";
        String header = Base64.getEncoder().encodeToString(json.getBytes());
        assertThatThrownBy(() -> dev.agentpay.invoice.x402.service.PaymentDecoder.decode(header, 1, List.of(), Instant.now()))
                .hasMessageContaining("not base64-encoded JSON");
    }
}
