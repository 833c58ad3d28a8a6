package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

/**
 * Mandates with more than two parties (the parties form) through HTTP: creation and its refusals, signing in
 * order with each party's own scheme (role-bound HMAC computed here by hand, EIP-712 signed here over the
 * proof's typed data with web3j's generic encoder, independently of the service's {@code Eip712Parties}), the
 * states {@code signed_by_proposer}, {@code partially_signed}, {@code signed_by_all} (and {@code signed_by_both}
 * with two), the receipt, the proof listing every signature, start/complete/dispute, and the events.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class PartiesMandateTest {

    private static final long CHAIN_ID = 84532;
    // anvil's well-known development keys 5 and 6: test data only
    private static final Credentials ALICE = Credentials.create("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    private static final Credentials BOB = Credentials.create("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
    private static final ObjectMapper JSON = new ObjectMapper();

    static TestPartner partner;

    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Parties");
        }
    }

    private static String caip10(Credentials c) {
        return "eip155:" + CHAIN_ID + ":" + Keys.toChecksumAddress(c.getAddress());
    }

    private static Map<String, Object> party(String id, String role) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("id", id);
        p.put("role", role);
        return p;
    }

    private static Map<String, Object> body(List<Map<String, Object>> parties, String scheme) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("parties", parties);
        body.put("scope", "Deliver, inspect, pay");
        body.put("terms", Map.of("currency", "USDC", "amount", 100));
        body.put("expiry", Api.inDays(10));
        if (scheme != null) {
            body.put("signature_scheme", scheme);
        }
        return body;
    }

    private static ValidatableResponse post(Object body) {
        return partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then();
    }

    private static String create(List<Map<String, Object>> parties, String scheme) {
        return post(body(parties, scheme)).statusCode(201).body("data.status", equalTo("proposed")).extract()
                .path("data.mandate_id");
    }

    private static JsonPath get(String id) {
        return partner.as().get("/v1/mandates/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static ValidatableResponse sign(String id, String signer, String signature) {
        return partner.as().contentType(ContentType.JSON).body(Map.of("signer", signer, "signature", signature))
                .post("/v1/mandates/" + id + "/sign").then();
    }

    /** The parties form's canonical text, assembled by hand from the stored mandate ({@code role} null: plain hmac). */
    private static String canonical(JsonPath m, String role) {
        StringBuilder out = new StringBuilder("{\"expires_at\":").append(q(m.getString("data.expires_at")))
                .append(",\"id\":").append(q(m.getString("data.id"))).append(",\"parties\":[");
        List<Map<String, Object>> parties = m.getList("data.parties");
        for (int i = 0; i < parties.size(); i++) {
            out.append(i > 0 ? "," : "").append("{\"id\":").append(q((String) parties.get(i).get("id")))
                    .append(",\"role\":").append(q((String) parties.get(i).get("role"))).append('}');
        }
        out.append("],\"scope\":").append(q(m.getString("data.scope")));
        if (role != null) {
            out.append(",\"signer_role\":").append(q(role));
        }
        return out.append(",\"terms\":").append(Api.TERMS).append('}').toString();
    }

    private static String q(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Signs the typed data the proof publishes, hashed by web3j's generic EIP-712 encoder. */
    private static String walletSign(String id, Credentials who) throws Exception {
        Object typed = partner.as().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200).extract()
                .path("data.typed_data");
        byte[] digest = new StructuredDataEncoder(JSON.writeValueAsString(typed)).hashStructuredData();
        Sign.SignatureData s = Sign.signMessage(digest, who.getEcKeyPair(), false);
        byte[] out = new byte[65];
        System.arraycopy(s.getR(), 0, out, 0, 32);
        System.arraycopy(s.getS(), 0, out, 32, 32);
        out[64] = s.getV()[0];
        return "0x" + HexFormat.of().formatHex(out);
    }

    @Test
    void threePartiesSignInOrderEachWithItsSchemeAndReachSignedByAll() throws Exception {
        String buyer = "agent:buyer-" + System.nanoTime();
        String id = create(List.of(party(buyer, "buyer"), party(caip10(ALICE), "seller"), party(caip10(BOB), "inspector")),
                "hmac-role");
        JsonPath m = get(id);
        assertThat(m.getString("data.proto_version")).isEqualTo("0.2");
        assertThat(m.getString("data.proposer_agent_id")).isEqualTo(buyer);
        assertThat(m.getString("data.counterparty_agent_id")).isNull();
        assertThat(m.getList("data.parties.role")).containsExactly("buyer", "seller", "inspector");
        assertThat(m.getList("data.parties.signature_scheme")).containsExactly("hmac-role", "eip712", "eip712");
        JsonPath proof = partner.as().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200).extract().jsonPath();
        assertThat(proof.getString("data.hash_scheme")).isEqualTo("eip712");
        assertThat(proof.getString("data.typed_data.primaryType")).isEqualTo("MultiPartyMandate");
        assertThat(proof.getString("data.canonical")).isEqualTo(canonical(m, null));
        byte[] digest = new StructuredDataEncoder(JSON.writeValueAsString(proof.get("data.typed_data"))).hashStructuredData();
        assertThat(m.getString("data.proto_mandate_hash")).isEqualTo("0x" + HexFormat.of().formatHex(digest));

        String buyerSig = TestSigner.hmac(canonical(m, "buyer"), partner.signingSecret());
        // out of order, unknown roles, another role's bytes: refused, nothing changes
        sign(id, "seller", walletSign(id, ALICE)).statusCode(409).body("error.code", equalTo("invalid_transition"))
                .body("error.message", equalTo("mandate is proposed: the parties sign in the order of the mandate: the next "
                        + "signer is \"buyer\", not \"seller\""));
        sign(id, "auditor", buyerSig).statusCode(400).body("error.code", equalTo("invalid_signer"))
                .body("error.message", equalTo("signer must be one of this mandate's roles: buyer, seller, inspector"));
        sign(id, "proposer", buyerSig).statusCode(400).body("error.code", equalTo("invalid_signer"));
        sign(id, "Buyer", buyerSig).statusCode(400).body("error.code", equalTo("invalid_signer"));
        sign(id, "buyer", TestSigner.hmac(canonical(m, "seller"), partner.signingSecret())).statusCode(403)
                .body("error.code", equalTo("invalid_signature"));
        sign(id, "buyer", TestSigner.hmac(canonical(m, null), partner.signingSecret())).statusCode(403);
        assertThat(get(id).getString("data.state")).isEqualTo("proposed");

        sign(id, "buyer", buyerSig).statusCode(200).body("data.status", equalTo("signed_by_proposer"))
                .body("data.drs_receipt_id", equalTo(null));
        sign(id, "buyer", buyerSig).statusCode(409).body("error.message", equalTo("mandate is signed_by_proposer: \"buyer\" has "
                + "signed already; the next signer is \"seller\""));
        sign(id, "inspector", walletSign(id, BOB)).statusCode(409).body("error.code", equalTo("invalid_transition"));
        sign(id, "seller", walletSign(id, BOB)).statusCode(403).body("error.code", equalTo("invalid_signature"));
        sign(id, "seller", walletSign(id, ALICE)).statusCode(200).body("data.status", equalTo("partially_signed"));
        String receipt = sign(id, "inspector", walletSign(id, BOB)).statusCode(200).body("data.status", equalTo("signed_by_all"))
                .body("data.drs_receipt_id", startsWith("drs_")).extract().path("data.drs_receipt_id");
        sign(id, "inspector", walletSign(id, BOB)).statusCode(409).body("error.message",
                equalTo("mandate is signed_by_all: no party can sign any more"));

        m = get(id);
        assertThat(m.getString("data.state")).isEqualTo("signed_by_all");
        assertThat(m.getString("data.proposer_signature")).isEqualTo(buyerSig);
        assertThat(m.getList("data.parties.signed_at")).doesNotContainNull();
        assertThat(m.getList("data.transitions.to_state")).containsExactly("proposed", "signed_by_proposer",
                "partially_signed", "signed_by_all");
        assertThat(m.getList("data.transitions.metadata.triggered_by")).containsExactly("proposer", "buyer", "seller",
                "inspector");
        proof = partner.as().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200).extract().jsonPath();
        assertThat(proof.getList("data.signatures.role")).containsExactly("buyer", "seller", "inspector");
        assertThat(proof.getList("data.signatures.recovered_address")).containsExactly(null,
                ALICE.getAddress().toLowerCase(), BOB.getAddress().toLowerCase());
        assertThat(proof.getList("data.signatures.signature")).doesNotContainNull();
        JsonPath pub = partner.as().get("/v1/public/mandates/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(pub.getList("data.parties.role")).containsExactly("buyer", "seller", "inspector");
        JsonPath r = partner.as().get("/v1/receipts/" + receipt).then().statusCode(200).extract().jsonPath();
        assertThat(r.getString("data.proposer_signature")).isEqualTo(buyerSig);
        assertThat(r.getList("data.parties.role")).containsExactly("buyer", "seller", "inspector");
        assertThat(r.getList("data.parties.signature")).doesNotContainNull();

        // signed_by_all works as signed_by_both: complete passes through in_progress
        partner.as().contentType(ContentType.JSON).post("/v1/mandates/" + id + "/complete").then().statusCode(200)
                .body("data.status", equalTo("completed"));
        List<String> types = MandateEvents.get().await(id, 6).stream().map(e -> e.event().type()).toList();
        assertThat(types).containsExactly("mandate.proposed", "mandate.signed_by_proposer", "mandate.partially_signed",
                "mandate.signed_by_all", "mandate.in_progress", "mandate.completed");
        assertThat(MandateEvents.get().of(id).get(3).raw().at("/mandate/parties/2/role").asText()).isEqualTo("inspector");
    }

    @Test
    void walletPartiesSignTheBudgetInTheMultiPartyStruct() throws Exception {
        Map<String, Object> body = body(List.of(party(caip10(ALICE), "buyer"), party(caip10(BOB), "seller")), null);
        body.put("budget", Map.of("amount", "1.50", "currency", "USDC", "max_per_charge", "0.50", "period", "P1D"));
        String id = post(body).statusCode(201).extract().path("data.mandate_id");
        JsonPath proof = partner.as().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200).extract().jsonPath();
        assertThat(proof.getString("data.typed_data.primaryType")).isEqualTo("MultiPartyMandate");
        assertThat(proof.getMap("data.typed_data.message.budget")).containsEntry("amount", "1.50")
                .containsEntry("currency", "USDC").containsEntry("maxPerCharge", "0.50").containsEntry("period", "P1D");
        assertThat(proof.getList("data.typed_data.types.MultiPartyMandate.name")).last().isEqualTo("budget");
        byte[] digest = new StructuredDataEncoder(JSON.writeValueAsString(proof.get("data.typed_data"))).hashStructuredData();
        assertThat(get(id).getString("data.proto_mandate_hash")).isEqualTo("0x" + HexFormat.of().formatHex(digest));

        // a wallet that signed the struct without the budget signed another mandate: refused, nothing changes
        Map<String, Object> typed = proof.getMap("data.typed_data");
        @SuppressWarnings("unchecked")
        Map<String, Object> message = new LinkedHashMap<>((Map<String, Object>) typed.get("message"));
        message.remove("budget");
        @SuppressWarnings("unchecked")
        Map<String, Object> types = new LinkedHashMap<>((Map<String, Object>) typed.get("types"));
        types.remove("Budget");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> fields = new java.util.ArrayList<>((List<Map<String, Object>>) types.get("MultiPartyMandate"));
        fields.removeIf(f -> "budget".equals(f.get("name")));
        types.put("MultiPartyMandate", fields);
        Map<String, Object> withoutBudget = new LinkedHashMap<>(typed);
        withoutBudget.put("message", message);
        withoutBudget.put("types", types);
        Sign.SignatureData bad = Sign.signMessage(new StructuredDataEncoder(JSON.writeValueAsString(withoutBudget))
                .hashStructuredData(), ALICE.getEcKeyPair(), false);
        byte[] badSig = new byte[65];
        System.arraycopy(bad.getR(), 0, badSig, 0, 32);
        System.arraycopy(bad.getS(), 0, badSig, 32, 32);
        badSig[64] = bad.getV()[0];
        sign(id, "buyer", "0x" + HexFormat.of().formatHex(badSig)).statusCode(403).body("error.code", equalTo("invalid_signature"));
        assertThat(get(id).getString("data.state")).isEqualTo("proposed");

        sign(id, "buyer", walletSign(id, ALICE)).statusCode(200).body("data.status", equalTo("signed_by_proposer"));
        sign(id, "seller", walletSign(id, BOB)).statusCode(200).body("data.status", equalTo("signed_by_both"));
        JsonPath m = get(id);
        assertThat(m.getString("data.budget.amount")).isEqualTo("1.50");
        assertThat(m.getString("data.budget_remaining")).isEqualTo("1.5");
    }

    @Test
    void fourHmacPartiesPassThroughPartiallySignedTwiceAndCanBeDisputed() {
        List<Map<String, Object>> parties = new ArrayList<>();
        for (String role : List.of("a", "b", "c", "d")) {
            parties.add(party("agent:" + role + "-" + System.nanoTime(), role));
        }
        String id = create(parties, null);
        JsonPath m = get(id);
        assertThat(m.getString("data.proto_version")).isEqualTo("0.2");
        String sig = TestSigner.hmac(canonical(m, null), partner.signingSecret());
        assertThat(m.getString("data.proto_mandate_hash")).isEqualTo(TestSigner.sha256Hash(canonical(m, null)));
        List<String> states = new ArrayList<>();
        for (String role : List.of("a", "b", "c", "d")) {
            states.add(sign(id, role, sig).statusCode(200).extract().path("data.status"));
        }
        assertThat(states).containsExactly("signed_by_proposer", "partially_signed", "partially_signed", "signed_by_all");
        partner.as().contentType(ContentType.JSON).body(Map.of("reason", "the inspector never came"))
                .post("/v1/mandates/" + id + "/dispute").then().statusCode(200).body("data.status", equalTo("disputed"));
    }

    @Test
    void twoPartiesWithRolesOfTheirOwnReachSignedByBoth() {
        String id = create(List.of(party("agent:x-" + System.nanoTime(), "payer"), party("agent:y-" + System.nanoTime(), "payee")),
                null);
        JsonPath m = get(id);
        String sig = TestSigner.hmac(canonical(m, null), partner.signingSecret());
        sign(id, "payer", sig).statusCode(200).body("data.status", equalTo("signed_by_proposer"));
        sign(id, "payee", sig).statusCode(200).body("data.status", equalTo("signed_by_both"));
        partner.as().contentType(ContentType.JSON).post("/v1/mandates/" + id + "/start").then().statusCode(200)
                .body("data.status", equalTo("in_progress"));
    }

    @Test
    void twoPartyFormIsUnchangedAndListsItsPartiesToo() {
        Api.TestMandate t = Api.signedByBoth(partner);
        JsonPath m = Api.get(t).jsonPath();
        assertThat(m.getString("data.state")).isEqualTo("signed_by_both");
        assertThat(m.getString("data.proto_version")).isEqualTo("0.1");
        assertThat(m.getString("data.proto_mandate_hash")).isEqualTo(TestSigner.sha256Hash(t.canonical()));
        assertThat(m.getList("data.parties.role")).containsExactly("proposer", "counterparty");
        assertThat(m.getList("data.parties.id")).containsExactly(t.proposer(), t.counterparty());
        assertThat(m.getList("data.parties.signature")).containsExactly(t.signature(), t.signature());
    }

    @Test
    void badPartiesAreRefusedNamingTheField() {
        List<Map<String, Object>> seventeen = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            seventeen.add(party("agent:" + i, "r" + i));
        }
        refused(body(seventeen, null), "parties: must list 2 to 16 parties");
        refused(body(List.of(party("agent:1", "solo")), null), "parties: must list 2 to 16 parties");
        refused(body(List.of(party("agent:1", "buyer"), party("agent:2", "buyer")), null),
                "parties[1].role: must be unique: parties[0] has the role \"buyer\" too");
        refused(body(List.of(party("agent:1", "buyer"), party("agent:1", "seller")), null),
                "parties[1].id: must be unique: parties[0] has the same id");
        refused(body(List.of(party(caip10(ALICE), "buyer"), party(caip10(ALICE).toLowerCase(), "seller")), null),
                "parties[1].id: must be another wallet than parties[0]'s (the same address " + ALICE.getAddress().toLowerCase() + ")");
        refused(body(List.of(party("agent:1", "Buyer"), party("agent:2", "seller")), null),
                "parties[0].role: must be a lowercase name: a letter a-z, then up to 31 of a-z, 0-9, _ and -");
        refused(body(List.of(party("agent:1", "buyer"), party("agent:\u202e2", "seller")), null),
                "parties[1].id: must not contain control, bidi or zero-width characters (U+202E at character 7)");
        refused(body(List.of(party("agent:1", "buyer"), party("eip155:84532:0x12", "seller")), null),
                "parties[1].id: must be a CAIP-10 account eip155:<chain id>:0x<40 hex digits>");
        Map<String, Object> missingRole = new LinkedHashMap<>();
        missingRole.put("id", "agent:2");
        refused(body(List.of(party("agent:1", "buyer"), missingRole), null), "parties[1].role: is required");
        Map<String, Object> both = body(List.of(party("agent:1", "buyer"), party("agent:2", "seller")), null);
        both.put("proposer", "agent:1");
        refused(both, "parties: must not be sent with proposer or counterparty: send either proposer and counterparty "
                + "(two parties), or parties (2 to 16)");
        Map<String, Object> neither = body(List.of(), null);
        neither.remove("parties");
        refused(neither, "counterparty: is required");
        neither.put("counterparty", "agent:2");
        refused(neither, "proposer: is required (or send parties instead of proposer and counterparty)");
        Map<String, Object> extra = new LinkedHashMap<>(party("agent:2", "seller"));
        extra.put("scheme", "eip712");
        // a binding error names list positions the platform's way (ErrorMappers: "lines.[1].quantity")
        refused(body(List.of(party("agent:1", "buyer"), extra), null), "parties.[1].scheme: unknown field");
    }

    private static void refused(Object body, String message) {
        post(body).statusCode(400).body("error.code", equalTo("validation_error")).body("error.message", equalTo(message));
    }
}
