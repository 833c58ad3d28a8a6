package dev.agentpay.commons.chains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class Create2Test {

    private static final HexFormat HEX = HexFormat.of();

    @Test
    void keccakIsEthereumsNotNistSha3() {
        assertThat(HEX.formatHex(Create2.keccak256(new byte[0])))
                .isEqualTo("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    }

    @Test
    void eip1014Examples() {
        // EIP-1014 example 0: deployer 0x00..00, salt 0x00..00, init code 0x00
        byte[] zero20 = new byte[20];
        byte[] zero32 = new byte[32];
        assertThat(HEX.formatHex(Create2.address(zero20, zero32, Create2.keccak256(new byte[] {0}))))
                .isEqualTo("4d1a2e2bb4f88f0250f26ffff098b0b30b26bf38");
        // example 1: deployer 0xdeadbeef00000000000000000000000000000000, salt 0x00..00, init code 0x00
        byte[] deadbeef = HEX.parseHex("deadbeef00000000000000000000000000000000");
        assertThat(HEX.formatHex(Create2.address(deadbeef, zero32, Create2.keccak256(new byte[] {0}))))
                .isEqualTo("b928f69bb1d91cd65274e3c79d8986362984fda3");
    }

    @Test
    void theInvoiceSaltHashesTheLowerCaseId() {
        UUID id = UUID.fromString("123E4567-E89B-12D3-A456-426614174000");
        assertThat(Create2.invoiceSalt(id)).hasSize(32)
                .isEqualTo(Create2.keccak256("123e4567-e89b-12d3-a456-426614174000".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertThatThrownBy(() -> Create2.address(new byte[19], new byte[32], new byte[32])).isInstanceOf(IllegalArgumentException.class);
    }
}
