package dev.agentpay.mandate.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Hash;

/**
 * {@code POST /v1/mandates/{id}/escrow}: funding instructions for a signed mandate with a budget (approve + fund calldata,
 * or EIP-3009 typed data whose nonce commits to the terms), the ABI being service-commons' MandateEscrowAbi (checked
 * against the contract on anvil by settlement-watcher's MandateEscrowTest); 409 unsigned or without a budget; 400 bad
 * input naming the field; 404 another partner's.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(InvoiceServiceStub.class)
class EscrowFundingTest {

    static final String ESCROW = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    static final String SELLER = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";
    static final String BASE_USDC = "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913";
    static final String PAYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    static Map<String, Object> body(String chain, String payer, String method, Map<String, Object> stream) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("chain", chain);
        b.put("payer", payer);
        b.put("method", method);
        if (stream != null) {
            b.put("stream", stream);
        }
        return b;
    }

    static io.restassured.response.Response post(TestPartner p, String id, Object body) {
        return p.as().contentType(ContentType.JSON).body(body).post("/v1/mandates/" + id + "/escrow");
    }

    @Test
    void approveAndFundCalldataForTheBudgetAmount() {
        TestPartner p = Api.newPartner("Escrow funder");
        BudgetChargeTest.Budgeted m = BudgetChargeTest.signedBudget(p, "12.50", null, null);
        JsonPath j = post(p, m.id(), body("base", PAYER, "approve", null)).then().statusCode(200).extract().jsonPath();
        assertThat(j.getBoolean("success")).isTrue();
        assertThat(j.getString("data.contract")).isEqualTo(ESCROW);
        assertThat(j.getString("data.token")).isEqualTo(BASE_USDC);
        assertThat(j.getLong("data.chain_id")).isEqualTo(8453L);
        assertThat(j.getString("data.amount")).isIn("12.5", "12.50", "12.500000");
        assertThat(j.getString("data.amount_atomic")).isEqualTo("12500000");
        assertThat(j.getString("data.counterparty")).isEqualTo(SELLER);
        assertThat(j.getString("data.payer")).isEqualTo(PAYER.toLowerCase());
        String hash = j.getString("data.mandate_hash");
        assertThat(j.getString("data.escrow_id")).isEqualTo(MandateEscrowAbi.escrowId(hash, PAYER));
        long expiresAt = j.getLong("data.expires_at");
        assertThat(expiresAt).isGreaterThan(Instant.now().getEpochSecond());
        var terms = new MandateEscrowAbi.Terms(hash, SELLER, BigInteger.valueOf(12_500_000), 0, 0, expiresAt);
        List<Map<String, Object>> txs = j.getList("data.transactions");
        assertThat(txs).hasSize(2);
        assertThat(txs.get(0)).containsEntry("to", BASE_USDC).containsEntry("data", MandateEscrowAbi.approve(ESCROW, terms.amount()));
        assertThat(txs.get(1)).containsEntry("to", ESCROW).containsEntry("data", MandateEscrowAbi.fund(terms));
        assertThat((Object) j.get("data.typed_data")).isNull();
    }

    @Test
    void eip3009TypedDataCommitsToTheTermsWithTheStream() throws Exception {
        TestPartner p = Api.newPartner("Escrow signer");
        BudgetChargeTest.Budgeted m = BudgetChargeTest.signedBudget(p, "3", null, null);
        Instant start = Instant.now().plusSeconds(3600);
        Instant end = start.plusSeconds(86_400);
        JsonPath j = post(p, m.id(), body("base", PAYER, "eip3009", Map.of("start", start.toString().replaceAll("\\.\\d+Z$", "Z"),
                "end", end.toString().replaceAll("\\.\\d+Z$", "Z")))).then().statusCode(200).extract().jsonPath();
        long s = j.getLong("data.stream_start");
        long e = j.getLong("data.stream_end");
        assertThat(s).isEqualTo(start.getEpochSecond());
        assertThat(e).isEqualTo(end.getEpochSecond());
        var terms = new MandateEscrowAbi.Terms(j.getString("data.mandate_hash"), SELLER, BigInteger.valueOf(3_000_000), s, e,
                j.getLong("data.expires_at"));
        Map<String, Object> typed = j.getMap("data.typed_data");
        assertThat(typed).containsEntry("primaryType", "ReceiveWithAuthorization");
        @SuppressWarnings("unchecked")
        Map<String, Object> domain = (Map<String, Object>) typed.get("domain");
        assertThat(domain).containsEntry("name", "USD Coin").containsEntry("version", "2").containsEntry("verifyingContract", BASE_USDC);
        @SuppressWarnings("unchecked")
        Map<String, Object> message = (Map<String, Object>) typed.get("message");
        assertThat(message).containsEntry("to", ESCROW).containsEntry("value", "3000000").containsEntry("from", PAYER.toLowerCase())
                .containsEntry("nonce", MandateEscrowAbi.termsNonce(terms));
        // the digest a wallet signs is computable from the typed data as given
        byte[] digest = new org.web3j.crypto.StructuredDataEncoder(new ObjectMapper().writeValueAsString(typed)).hashStructuredData();
        assertThat(digest).hasSize(32);
        List<Map<String, Object>> txs = j.getList("data.transactions");
        assertThat(txs).hasSize(1);
        String prefix = (String) txs.get(0).get("data_prefix");
        assertThat(prefix).startsWith(Hash.sha3String(MandateEscrowAbi.FUND_WITH_AUTHORIZATION)
                .substring(0, 10));
        String sig = "0x" + "ab".repeat(32) + "cd".repeat(32) + "1b";
        assertThat(prefix + "000000000000000000000000000000000000000000000000000000000000001b" + "ab".repeat(32) + "cd".repeat(32))
                .isEqualTo(MandateEscrowAbi.fundWithAuthorization(terms, PAYER, BigInteger.ZERO,
                        BigInteger.valueOf(j.getLong("data.valid_before")), sig));
    }

    @Test
    void refusedWhenNotFullySignedWithoutBudgetOrWithBadInput() {
        TestPartner p = Api.newPartner("Escrow refusals");
        var unsigned = Api.create(p);
        post(p, unsigned.id(), body("base", PAYER, "approve", null)).then().statusCode(409)
                .body("success", equalTo(false)).body("error.code", equalTo("mandate_not_signed"));
        var noBudget = Api.signedByBoth(p);
        post(p, noBudget.id(), body("base", PAYER, "approve", null)).then().statusCode(409).body("error.code", equalTo("no_budget"));

        BudgetChargeTest.Budgeted m = BudgetChargeTest.signedBudget(p, "1", null, null);
        post(p, m.id(), body("solana", PAYER, "approve", null)).then().statusCode(400).body("error.code", equalTo("unsupported_chain"));
        post(p, m.id(), body("polygon", PAYER, "approve", null)).then().statusCode(400).body("error.code", equalTo("escrow_not_available"));
        post(p, m.id(), body("base", "0x1234", "approve", null)).then().statusCode(400).body("error.code", equalTo("validation_error"));
        post(p, m.id(), body("base", PAYER, "wire", null)).then().statusCode(400).body("error.code", equalTo("validation_error"));
        post(p, m.id(), body("base", PAYER, "approve", Map.of("start", "2026-12-02T00:00:00Z", "end", "2026-12-01T00:00:00Z")))
                .then().statusCode(400).body("error.code", equalTo("validation_error"));
        post(p, m.id(), body("base", PAYER, "approve", Map.of("start", "2026-12-01T00:00:00Z", "end", "2999-12-01T00:00:00Z")))
                .then().statusCode(400).body("error.code", equalTo("validation_error"));
        Map<String, Object> extra = body("base", PAYER, "approve", null);
        extra.put("amount", "99");
        post(p, m.id(), extra).then().statusCode(400);

        TestPartner other = Api.newPartner("Not the owner");
        post(other, m.id(), body("base", PAYER, "approve", null)).then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
    }
}
