package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.Keys;
import org.web3j.crypto.Sign;
import org.web3j.crypto.StructuredDataEncoder;

/**
 * Spec v0.2 signing through HTTP: wallet parties signing EIP-712 typed data (signed here with web3j's own
 * JSON-driven StructuredDataEncoder, independently of the service's Eip712Mandate), role-bound HMACs, and
 * the public proof document.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class VerifiableMandateTest {

    /** The anchor signer a receipt names (anvil's account #9, as after a rotation). */
    static final String ANCHOR_SIGNER = "0xa0ee7a142d267c1f36714e4a8f75612f20a79720";

    /** %test.mandate.eip712.verifying-contract and the default chain id. */
    private static final String CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
    private static final long CHAIN_ID = 84532;
    // anvil's well-known development keys 5, 6 and 7: test data only
    private static final Credentials ALICE = Credentials.create("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    private static final Credentials BOB = Credentials.create("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
    private static final Credentials MALLORY = Credentials.create("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356");

    static TestPartner partner;

    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Verifiable");
        }
    }

    private static String caip10(Credentials c) {
        return "eip155:" + CHAIN_ID + ":" + Keys.toChecksumAddress(c.getAddress());
    }

    private static String create(String proposer, String counterparty, String hmacScheme) {
        Map<String, Object> body = Api.createBody(proposer, counterparty, Api.inDays(10));
        if (hmacScheme != null) {
            body.put("signature_scheme", hmacScheme);
        }
        return partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(201)
                .extract().path("data.mandate_id");
    }

    private static JsonPath get(String id) {
        return partner.as().get("/v1/mandates/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static io.restassured.response.ValidatableResponse sign(String id, String signer, String scheme, String sig) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("signer", signer);
        if (scheme != null) {
            body.put("scheme", scheme);
        }
        body.put("signature", sig);
        return partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates/" + id + "/sign").then();
    }

    /** The typed data JSON of a stored mandate, as eth_signTypedData_v4 takes it, for the given domain. */
    private static String typedData(JsonPath m, long chainId, String contract) {
        // Api.createBody's terms, canonical: keys sorted
        String termsHash = "0x" + HexFormat.of().formatHex(Hash.sha3(Api.TERMS.getBytes(StandardCharsets.UTF_8)));
        return """
                {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},
                {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],
                "Mandate":[{"name":"id","type":"string"},{"name":"proposer","type":"string"},
                {"name":"counterparty","type":"string"},{"name":"scope","type":"string"},{"name":"termsHash","type":"bytes32"},
                {"name":"expiresAt","type":"string"},{"name":"protoVersion","type":"string"}]},
                "primaryType":"Mandate",
                "domain":{"name":"agentpay mandate","version":"1","chainId":%d,"verifyingContract":"%s"},
                "message":{"id":"%s","proposer":"%s","counterparty":"%s","scope":"%s","termsHash":"%s",
                "expiresAt":"%s","protoVersion":"%s"}}
                """.formatted(chainId, contract, m.getString("data.id"), m.getString("data.proposer_agent_id"),
                m.getString("data.counterparty_agent_id"), m.getString("data.scope"), termsHash,
                m.getString("data.expires_at"), m.getString("data.proto_version"));
    }

    private static byte[] digest(String typedDataJson) {
        try {
            return new StructuredDataEncoder(typedDataJson).hashStructuredData();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String signDigest(byte[] digest, Credentials who) {
        Sign.SignatureData s = Sign.signMessage(digest, who.getEcKeyPair(), false);
        byte[] out = new byte[65];
        System.arraycopy(s.getR(), 0, out, 0, 32);
        System.arraycopy(s.getS(), 0, out, 32, 32);
        out[64] = s.getV()[0];
        return "0x" + HexFormat.of().formatHex(out);
    }

    @Test
    void twoWalletsSignThroughTheWholeLifeAndTheProofNamesThem() throws Exception {
        String id = create(caip10(ALICE), caip10(BOB), null);
        JsonPath m = get(id);
        assertThat(m.getString("data.proto_version")).isEqualTo("0.2");
        assertThat(m.getString("data.proposer_signature_scheme")).isEqualTo("eip712");
        assertThat(m.getString("data.counterparty_signature_scheme")).isEqualTo("eip712");
        byte[] digest = digest(typedData(m, CHAIN_ID, CONTRACT));
        // the mandate hash is the EIP-712 digest: what the wallets sign is what gets anchored
        assertThat(m.getString("data.proto_mandate_hash")).isEqualTo("0x" + HexFormat.of().formatHex(digest));

        String alice = signDigest(digest, ALICE);
        // wrong scheme named, another key, another chain, garbage: refused, nothing stored
        sign(id, "proposer", "hmac", alice).statusCode(400).body("error.code", equalTo("scheme_mismatch"));
        sign(id, "proposer", "eip712", signDigest(digest, MALLORY)).statusCode(403)
                .body("error.code", equalTo("invalid_signature"))
                .body("error.message", containsString(MALLORY.getAddress().toLowerCase()));
        sign(id, "proposer", "eip712", signDigest(digest(typedData(m, 8453, CONTRACT)), ALICE)).statusCode(403)
                .body("error.code", equalTo("invalid_signature"));
        sign(id, "proposer", "eip712", signDigest(digest(typedData(m, CHAIN_ID,
                "0x0000000000000000000000000000000000000001")), ALICE)).statusCode(403);
        sign(id, "proposer", null, "0x1234").statusCode(403).body("error.message", containsString("130 hex digits"));
        sign(id, "proposer", null, "a".repeat(64)).statusCode(403);
        assertThat(get(id).getString("data.state")).isEqualTo("proposed");

        sign(id, "proposer", "eip712", alice).statusCode(200).body("data.status", equalTo("signed_by_proposer"));
        // the proposer's signature, which GET shows, is no counterparty signature
        sign(id, "counterparty", "eip712", alice).statusCode(403)
                .body("error.message", containsString("counterparty's address"));
        sign(id, "counterparty", null, signDigest(digest, BOB).toUpperCase().replace("0X", "0x")).statusCode(200)
                .body("data.status", equalTo("signed_by_both"));

        JsonPath pub = RestAssured.given().get("/v1/public/mandates/" + id).then().statusCode(200).extract().jsonPath();
        assertThat(pub.getString("data.parties[0].signature_scheme")).isEqualTo("eip712");
        assertThat(pub.getString("data.parties[1].signature_scheme")).isEqualTo("eip712");

        // an anchor receipt lands: the proof lists it with the contract and log index
        JsonPath signed = get(id);
        String tx = "0x" + "ab".repeat(32);
        dev.agentpay.mandate.support.AnchorReceipts.send(new AnchorReceiptEvent(EventHeader.of(AnchorReceiptEvent.TYPE, id, partner.id(),
                Instant.now(), 1), signed.getString("data.transitions[2].id"), signed.getString("data.proto_mandate_hash"),
                "signed_by_both", CHAIN_ID, tx, 77, 3, CONTRACT, ANCHOR_SIGNER));
        await("the anchor of signed_by_both").atMost(Duration.ofSeconds(20)).until(() -> tx.equals(get(id).getString("data.transitions[2].anchor_tx_hash")));

        JsonPath proof = RestAssured.given().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200)
                .body("success", equalTo(true)).extract().jsonPath();
        assertThat(proof.getString("data.format")).isEqualTo("agentpay-mandate-proof/1");
        assertThat(proof.getString("data.hash_scheme")).isEqualTo("eip712");
        assertThat(proof.getString("data.mandate_hash")).isEqualTo(m.getString("data.proto_mandate_hash"));
        assertThat(proof.getString("data.typed_data.primaryType")).isEqualTo("Mandate");
        assertThat(proof.getLong("data.typed_data.domain.chainId")).isEqualTo(CHAIN_ID);
        assertThat(proof.getString("data.typed_data.domain.verifyingContract")).isEqualTo(CONTRACT);
        assertThat(proof.getString("data.typed_data.message.termsHash"))
                .isEqualTo("0x" + HexFormat.of().formatHex(Hash.sha3(Api.TERMS.getBytes(StandardCharsets.UTF_8))));
        assertThat(proof.getString("data.terms")).isEqualTo(Api.TERMS);
        assertThat(proof.getString("data.signatures[0].recovered_address")).isEqualTo(ALICE.getAddress().toLowerCase());
        assertThat(proof.getString("data.signatures[1].recovered_address")).isEqualTo(BOB.getAddress().toLowerCase());
        assertThat(proof.getBoolean("data.signatures[0].publicly_verifiable")).isTrue();
        assertThat(proof.getList("data.anchors")).hasSize(1);
        assertThat(proof.getString("data.anchors[0].to_state")).isEqualTo("signed_by_both");
        assertThat(proof.getString("data.anchors[0].contract")).isEqualTo(CONTRACT);
        assertThat(proof.getInt("data.anchors[0].log_index")).isEqualTo(3);
        assertThat(proof.getLong("data.anchors[0].block_number")).isEqualTo(77L);
        // the anchor names the signer whose transaction carries it (signer rotation, issue 31)
        assertThat(proof.getString("data.anchors[0].signer")).isEqualTo(ANCHOR_SIGNER);
        // the whole typed data as served hashes to the mandate hash with web3j's encoder too
        String served = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(proof.getMap("data.typed_data"));
        assertThat("0x" + HexFormat.of().formatHex(digest(served))).isEqualTo(proof.getString("data.mandate_hash"));
    }

    @Test
    void roleBoundHmacRefusesTheProposersSignatureReplayedAsTheCounterpartys() {
        String id = create("agent-p-" + UUID.randomUUID(), "agent-c-" + UUID.randomUUID(), "hmac-role");
        JsonPath m = get(id);
        assertThat(m.getString("data.proto_version")).isEqualTo("0.2");
        assertThat(m.getString("data.proposer_signature_scheme")).isEqualTo("hmac-role");
        String canonical = TestSigner.canonical(m.getString("data.counterparty_agent_id"), m.getString("data.expires_at"), id,
                m.getString("data.proposer_agent_id"), m.getString("data.scope"), Api.TERMS);
        String proposerSig = TestSigner.hmac(withRole(canonical, "proposer"), partner.signingSecret());
        // the v0.1 form is refused on a role-bound mandate
        sign(id, "proposer", null, TestSigner.hmac(canonical, partner.signingSecret())).statusCode(403)
                .body("error.message", containsString("signer_role"));
        sign(id, "proposer", "hmac-role", proposerSig).statusCode(200);
        sign(id, "counterparty", null, proposerSig).statusCode(403).body("error.code", equalTo("invalid_signature"));
        sign(id, "counterparty", null, TestSigner.hmac(withRole(canonical, "counterparty"), partner.signingSecret()))
                .statusCode(200).body("data.status", equalTo("signed_by_both"));
        JsonPath proof = RestAssured.given().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200)
                .extract().jsonPath();
        assertThat(proof.getString("data.hash_scheme")).isEqualTo("sha256-canonical");
        assertThat(proof.getString("data.canonical")).isEqualTo(canonical);
        assertThat(proof.getString("data.mandate_hash")).isEqualTo(TestSigner.sha256Hash(canonical));
        assertThat(proof.getBoolean("data.signatures[1].role_bound")).isTrue();
        assertThat(proof.getBoolean("data.signatures[1].publicly_verifiable")).isFalse();
        assertThat(proof.getMap("data")).containsEntry("typed_data", null);
    }

    @Test
    void v01MandatesAreUnchangedAndSayTheirSignaturesAreNotRoleBound() {
        Api.TestMandate m = Api.signedByBoth(partner);
        JsonPath j = Api.get(m).jsonPath();
        assertThat(j.getString("data.proto_version")).isEqualTo("0.1");
        assertThat(j.getString("data.proposer_signature_scheme")).isEqualTo("hmac");
        assertThat(j.getString("data.proto_mandate_hash")).isEqualTo(TestSigner.sha256Hash(m.canonical()));
        JsonPath proof = RestAssured.given().get("/v1/public/mandates/" + m.id() + "/proof").then().statusCode(200)
                .extract().jsonPath();
        assertThat(proof.getString("data.canonical")).isEqualTo(m.canonical());
        assertThat(proof.getBoolean("data.signatures[0].role_bound")).isFalse();
        assertThat(proof.getString("data.signatures[0].signature")).isEqualTo(m.signature());
    }

    @Test
    void badPartiesAndSchemesAreRefusedAtCreation() {
        Map<String, Object> body = Api.createBody("eip155:84532:0x1234", "agent-c", Api.inDays(5));
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", startsWith("proposer"));
        body = Api.createBody(caip10(ALICE), "eip155:1:" + ALICE.getAddress(), Api.inDays(5));
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                .body("error.message", startsWith("counterparty"));
        String badChecksum = "eip155:84532:0x" + Keys.toChecksumAddress(BOB.getAddress()).substring(2).chars()
                .map(c -> Character.isLetter(c) ? (Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c)) : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append);
        body = Api.createBody(caip10(ALICE), badChecksum, Api.inDays(5));
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                .body("error.message", containsString("checksum"));
        for (String scheme : new String[] {"eip712", "HMAC", "bogus"}) {
            body = Api.createBody("a", "b", Api.inDays(5));
            body.put("signature_scheme", scheme);
            partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                    .body("error.message", startsWith("signature_scheme"));
        }
        String id = create("a-" + UUID.randomUUID(), "b", null);
        sign(id, "proposer", "rsa", "a".repeat(64)).statusCode(400).body("error.message", startsWith("scheme"));
        RestAssured.given().get("/v1/public/mandates/mnd_" + UUID.randomUUID() + "/proof").then().statusCode(404)
                .body("error.code", equalTo("mandate_not_found"));
    }

    /** The canonical object with {@code signer_role} inserted before {@code terms} (alphabetical). */
    private static String withRole(String canonical, String role) {
        int at = canonical.indexOf(",\"terms\":");
        return canonical.substring(0, at) + ",\"signer_role\":\"" + role + "\"" + canonical.substring(at);
    }

    /**
     * Issue 33 item 2: a party id that reads as a wallet after NFKC folding, trimming and lowercasing but is
     * not a valid CAIP-10 account as written is refused naming the field, never taken as an HMAC party.
     */
    @Test
    void walletLookAlikePartiesAreRefusedNamingTheField() {
        String address = Keys.toChecksumAddress(ALICE.getAddress());
        String tail = "8453:" + address;
        for (String lookAlike : new String[] {"EIP155:" + tail, " eip155:" + tail, "eip155:" + tail + " ",
                "\uff45ip155:" + tail, "eip155\uff1a" + tail, "Eip155:" + tail, "eip155:8453:" + address.substring(0, 20)}) {
            for (String field : new String[] {"proposer", "counterparty"}) {
                Map<String, Object> body = Api.createBody("agent-a", "agent-b", Api.inDays(5));
                body.put(field, lookAlike);
                partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                        .body("success", equalTo(false)).body("error.code", equalTo("validation_error"))
                        .body("error.message", startsWith(field + ": "));
            }
        }
        // a name merely containing the prefix elsewhere is an ordinary party; a valid wallet is a wallet
        create("agent:eip155-" + UUID.randomUUID(), "b", null);
        Map<String, Object> body = Api.createBody("eip155:" + tail, "agent-b", Api.inDays(5));
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(201);
    }

    /**
     * Issue 33 item 5: a wallet signature with v = 0/1 (the bare recovery id) is accepted and stored normalised to
     * 27/28, the form the proof publishes; a signature longer than 132 characters is 400 validation_error (the
     * field's length limit, before any check), one within it that is malformed is 403 invalid_signature.
     */
    @Test
    void aWalletSignatureWithV0Or1IsStoredAs27Or28AndOverlongIs400() {
        String id = create(caip10(ALICE), caip10(BOB), null);
        JsonPath m = get(id);
        byte[] digest = digest(typedData(m, CHAIN_ID, CONTRACT));
        String alice = signDigest(digest, ALICE);
        int v = Integer.parseInt(alice.substring(130), 16);
        String withRecoveryId = alice.substring(0, 130) + (v == 27 ? "00" : "01");
        sign(id, "proposer", null, "0x" + "ab".repeat(100)).statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", startsWith("signature"));
        sign(id, "proposer", null, withRecoveryId.substring(0, 131)).statusCode(403).body("error.code", equalTo("invalid_signature"));
        sign(id, "proposer", "eip712", withRecoveryId).statusCode(200);
        assertThat(get(id).getString("data.proposer_signature")).isEqualTo(alice.toLowerCase());
        JsonPath proof = RestAssured.given().get("/v1/public/mandates/" + id + "/proof").then().statusCode(200).extract().jsonPath();
        assertThat(proof.getString("data.signatures[0].signature")).isEqualTo(alice.toLowerCase());
    }
}
