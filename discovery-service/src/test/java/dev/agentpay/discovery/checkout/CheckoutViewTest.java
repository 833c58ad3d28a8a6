package dev.agentpay.discovery.checkout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.discovery.checkout.domain.CheckoutView;
import dev.agentpay.discovery.checkout.service.QrSvg;
import dev.agentpay.discovery.console.domain.JsonView;
import io.nayuki.qrcodegen.QrCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The payment page's status line for each invoice state, its QR code, and the console's reading of API answers. */
class CheckoutViewTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode invoice(String status, String amount, String paid, String excess, String tx) throws Exception {
        return JSON.readTree("""
                {"id":"x","status":"%s","amount":%s,"paymentDetails":{"paidAmount":%s%s%s}}"""
                .formatted(status, amount, paid, excess == null ? "" : ",\"excessAmount\":" + excess,
                        tx == null ? "" : ",\"txHash\":\"" + tx + "\""));
    }

    @Test
    void eachStateHasItsLine() throws Exception {
        assertThat(CheckoutView.status(invoice("PENDING", "1.5", "0", null, null), null))
                .isEqualTo(new CheckoutView.Status("pending", "Awaiting payment", null, null, null));
        CheckoutView.Status partial = CheckoutView.status(invoice("PENDING", "1.5", "0.5", null, null), null);
        assertThat(partial.state()).isEqualTo("partial");
        assertThat(partial.detail()).startsWith("0.5 of 1.5 USDC received");
        CheckoutView.Status paid = CheckoutView.status(invoice("SETTLED", "1.5", "1.5", null, "0xabc"), "https://basescan.org/tx/");
        assertThat(paid).isEqualTo(new CheckoutView.Status("paid", "Paid", "1.5 USDC received", "0xabc", "https://basescan.org/tx/0xabc"));
        assertThat(CheckoutView.status(invoice("SETTLED", "1.5", "2", "0.5", "0xabc"), null).detail()).isEqualTo("Overpaid by 0.5 USDC");
        assertThat(CheckoutView.status(invoice("SETTLED", "1.5", "1.5", null, "0xabc"), null).txUrl()).isNull();
        assertThat(CheckoutView.status(invoice("EXPIRED", "1.5", "0", null, null), null).state()).isEqualTo("expired");
        assertThat(CheckoutView.status(invoice("EXPIRED", "1.5", "0.2", null, null), null).state()).isEqualTo("expired");
        assertThat(CheckoutView.status(invoice("EXPIRED", "1.5", "1.5", null, null), null).state()).isEqualTo("paid_late");
    }

    @Test
    void theQrCodeIsOneSvgPathOfTheUriAndItsLabelIsEscaped() {
        String uri = "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x00000000000000000000000000000000000Ba5e1&uint256=1";
        String svg = QrSvg.of(uri, "a \"label\" <b>");
        int size = QrCode.encodeText(uri, QrCode.Ecc.MEDIUM).size + 8;
        assertThat(svg).startsWith("<svg").contains("viewBox=\"0 0 " + size + " " + size + "\"")
                .contains("aria-label=\"a &quot;label&quot; &lt;b&gt;\"").doesNotContain("<b>");
        assertThat(QrSvg.of(null, "x")).isNull();
        // the path's rectangles cover exactly the dark modules of the code
        QrCode qr = QrCode.encodeText(uri, QrCode.Ecc.MEDIUM);
        boolean[][] drawn = new boolean[qr.size][qr.size];
        String d = svg.substring(svg.indexOf("<path d=\"") + 9, svg.indexOf("\" fill=\"#000000\""));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("M(\\d+),(\\d+)h(\\d+)v1h-(\\d+)z").matcher(d);
        int end = 0;
        while (m.find()) {
            assertThat(m.start()).as("one rectangle after another").isEqualTo(end);
            end = m.end();
            int x0 = Integer.parseInt(m.group(1)) - 4;
            int y = Integer.parseInt(m.group(2)) - 4;
            assertThat(m.group(3)).isEqualTo(m.group(4));
            for (int x = x0; x < x0 + Integer.parseInt(m.group(3)); x++) {
                assertThat(drawn[y][x]).as("module %d,%d drawn once", x, y).isFalse();
                drawn[y][x] = true;
            }
        }
        assertThat(end).as("nothing but rectangles in the path").isEqualTo(d.length());
        for (int y = 0; y < qr.size; y++) {
            for (int x = 0; x < qr.size; x++) {
                assertThat(drawn[y][x]).as("module %d,%d", x, y).isEqualTo(qr.getModule(x, y));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void apiAnswersReadWithAbsentMembersAsNull() throws Exception {
        Map<String, Object> m = JsonView.object(JSON.readTree("{\"a\":1,\"b\":1.50,\"c\":[{\"d\":true}],\"e\":\"<i>\"}"));
        assertThat(m.containsKey("missing")).isTrue();
        assertThat(m.get("missing")).isNull();
        assertThat(m.get("a")).isEqualTo(1L);
        assertThat(m.get("b")).isEqualTo("1.5");
        assertThat(((Map<String, Object>) ((List<Object>) m.get("c")).get(0)).get("d")).isEqualTo(true);
        assertThat(m.get("e")).isEqualTo("<i>");
    }
}
