package dev.agentpay.invoice.invoices.domain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.p2p.solanaj.utils.Base58;

/**
 * {@code paymentDetails.paymentUri}: EVM URIs against EIP-681's grammar, Solana URIs decoded by the Solana Pay
 * reference library ({@code @solana/pay}'s {@code parseURL}, run by node from {@code src/test/js/solana-pay}).
 */
class PaymentUriTest {

    static final ObjectMapper JSON = new ObjectMapper();

    /**
     * EIP-681's ABNF, for the shape we emit: {@code "ethereum" ":" [ "pay-" ]target_address [ "@" chain_id ]
     * [ "/" function_name ] [ "?" parameters ]}, target_address = "0x" 40*HEXDIG, chain_id = 1*DIGIT,
     * function_name = STRING, parameters = parameter *( "&" parameter ), parameter = key "=" value; a value of
     * type {@code address} is an address literal, of {@code uint256} a number (here in plain digits).
     */
    static final Pattern EIP_681 = Pattern.compile(
            "ethereum:(?:pay-)?(0x[0-9a-fA-F]{40})@([1-9][0-9]*)/([A-Za-z_][A-Za-z0-9_]*)\\?(address=(0x[0-9a-fA-F]{40}))&(uint256=([0-9]+))");

    static final String USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    static final String DEPOSIT = "0x00000000000000000000000000000000000Ba5e1";
    static final String SELLER_SOLANA = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
    static final String MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

    static Invoice invoice(String chain, String networkId, String payTo, String token, BigInteger atomic,
            Invoice.AddressKind kind) {
        UUID id = UUID.randomUUID();
        return new Invoice(id, 1, "p", InvoiceStatus.PENDING, new BigDecimal(atomic, 6), "USDC", null, null, null, chain,
                networkId, payTo, token, atomic, kind == Invoice.AddressKind.MEMO ? id.toString() : null, null, null, null,
                null, BigInteger.ZERO, null, null, Instant.now(), kind, null, null, null, null);
    }

    @Test
    void evmInvoicesGetAnEip681TransferOfTheirAtomicAmountToTheirOwnAddress() {
        for (BigInteger atomic : List.of(BigInteger.ONE, new BigInteger("12500000"), new BigInteger("1000000000000000"))) {
            Invoice inv = invoice("base", "8453", DEPOSIT, USDC_BASE, atomic, Invoice.AddressKind.DEPOSIT);
            String uri = PaymentUri.of(inv);
            Matcher m = EIP_681.matcher(uri);
            assertThat(m.matches()).as(uri).isTrue();
            assertThat(m.group(1)).isEqualTo(USDC_BASE);
            assertThat(m.group(2)).isEqualTo("8453");
            assertThat(m.group(3)).isEqualTo("transfer");
            assertThat(m.group(5)).isEqualTo(DEPOSIT);
            assertThat(new BigInteger(m.group(7))).isEqualTo(atomic);
        }
        assertThat(PaymentUri.of(invoice("skale", "1187947933", DEPOSIT, USDC_BASE, BigInteger.TEN, Invoice.AddressKind.DEPOSIT)))
                .startsWith("ethereum:" + USDC_BASE + "@1187947933/transfer?");
    }

    @Test
    void invoicesOfTheSharedAddressEraGetNoUri() {
        assertThat(PaymentUri.of(invoice("base", "8453", DEPOSIT, USDC_BASE, BigInteger.TEN, Invoice.AddressKind.SELLER))).isNull();
    }

    @Test
    void theViewCarriesTheUri() {
        Invoice inv = invoice("solana", "mainnet-beta", SELLER_SOLANA, MINT, new BigInteger("12500000"), Invoice.AddressKind.MEMO);
        assertThat(InvoiceView.of(inv).paymentDetails().paymentUri()).isEqualTo(PaymentUri.of(inv)).startsWith("solana:");
    }

    @Test
    void solanaPayDecodesTheTransferRequestWithTheWatchersMemo() throws Exception {
        List<Invoice> invoices = List.of(
                invoice("solana", "mainnet-beta", SELLER_SOLANA, MINT, new BigInteger("12500000"), Invoice.AddressKind.MEMO),
                invoice("solana", "mainnet-beta", SELLER_SOLANA, MINT, BigInteger.ONE, Invoice.AddressKind.MEMO),
                invoice("solana", "mainnet-beta", SELLER_SOLANA, MINT, new BigInteger("100000000000"), Invoice.AddressKind.MEMO));
        JsonNode decoded = parseWithSolanaPay(invoices.stream().map(PaymentUri::of).toList());
        for (int i = 0; i < invoices.size(); i++) {
            Invoice inv = invoices.get(i);
            JsonNode d = decoded.get(i);
            assertThat(d.path("ok").asBoolean()).as(d.toString()).isTrue();
            assertThat(d.path("recipient").asText()).isEqualTo(SELLER_SOLANA);
            assertThat(new BigDecimal(d.path("amount").asText())).isEqualByComparingTo(new BigDecimal(inv.payableAtomic(), 6));
            assertThat(d.path("splToken").asText()).isEqualTo(MINT);
            assertThat(d.path("memo").asText()).isEqualTo(inv.memo()).isEqualTo(inv.id().toString());
            assertThat(d.path("reference")).hasSize(1);
            assertThat(d.path("reference").get(0).asText()).isEqualTo(PaymentUri.solanaReference(inv.id()));
            assertThat(Base58.decode(d.path("reference").get(0).asText())).hasSize(32);
        }
        // the library refuses what it should: the check can fail
        JsonNode bad = parseWithSolanaPay(List.of("solana:not-a-key?amount=1", "solana:" + SELLER_SOLANA + "?amount=-1"));
        assertThat(bad.get(0).path("ok").asBoolean()).isFalse();
        assertThat(bad.get(1).path("ok").asBoolean()).isFalse();
    }

    static JsonNode parseWithSolanaPay(List<String> uris) throws Exception {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("src/test/js/solana-pay");
        Process p = new ProcessBuilder("node", dir.resolve("parse-solana-pay.mjs").toString()).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().write(JSON.writeValueAsBytes(uris));
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(new String(out, StandardCharsets.UTF_8)).isZero();
        return JSON.readTree(out);
    }
}
