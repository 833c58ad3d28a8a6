package dev.agentpay.discovery.documents.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The manifest's auth.keys_from is a plain address: a placeholder stops the service instead of being published. */
class SupportEmailTest {

    @ParameterizedTest
    @ValueSource(strings = {"<SUPPORT_EMAIL>", "", "  ", "${SUPPORT_EMAIL}", "{{ .Values.supportEmail }}", "support",
            "support@localhost", "a b@example.com", "<support@example.com>"})
    void placeholdersAndNonAddressesAreRefused(String value) {
        assertThatThrownBy(() -> SupportEmail.require(value)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("SUPPORT_EMAIL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"support@agentpay.localhost", "partners@agentpay.example.com", " ops+keys@api.example.org "})
    void plainAddressesAreKept(String value) {
        assertThat(SupportEmail.require(value)).isEqualTo(value.trim());
    }
}
