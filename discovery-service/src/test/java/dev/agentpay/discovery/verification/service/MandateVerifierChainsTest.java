package dev.agentpay.discovery.verification.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.verification.client.AnchorChainClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Vetoed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code service_verify_mandate} on a proof anchored on two chains (issue 31 item 3: one anchor per transition and
 * chain): each anchor is looked up on the RPC of its own chain, an anchor on a chain without a configured RPC is not
 * checked (null, not failed), names carry the chain when the anchors span chains, the signer history is read per
 * chain and contract, and only the anchors on the domain's chain are held to its verifying contract. The RPCs are
 * faked (a subclass of the client answering from fixed receipts); plain JUnit, no chain.
 */
class MandateVerifierChainsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final long PRIMARY = 84532;
    static final long OTHER = 8453;
    /** The parties vector's domain contract on PRIMARY; the anchor contract of OTHER is another address. */
    static final Map<Long, String> CONTRACT = Map.of(PRIMARY, "0x5fbdb2315678afecb367f032d93f642f64180aa3",
            OTHER, "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512");
    static final String SIGNER = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    static final List<String> STATES = List.of("signed_by_all", "completed");

    /**
     * Fake RPCs of the chains in {@code served}: every proof anchor's receipt, and the signer history of each contract.
     * Vetoed: not a bean of the Quarkus tests (it inherits the client's scope).
     */
    @Vetoed
    static class FakeChains extends AnchorChainClient {
        final Set<Long> served;
        final String mandateHash;
        final List<String> calls = new ArrayList<>();

        FakeChains(String mandateHash, Long... served) {
            this.served = Set.of(served);
            this.mandateHash = mandateHash;
        }

        @Override
        public boolean configured() {
            return !served.isEmpty();
        }

        @Override
        public Uni<Set<Long>> chains() {
            return Uni.createFrom().item(served);
        }

        @Override
        public Uni<Optional<JsonNode>> receipt(long chainId, String txHash) {
            assertThat(served).contains(chainId);
            calls.add("receipt " + chainId + " " + txHash);
            for (int i = 0; i < STATES.size(); i++) {
                if (txHash.equals(tx(chainId, STATES.get(i)))) {
                    return Uni.createFrom().item(Optional.of(receiptOf(chainId, STATES.get(i), 100 + i)));
                }
            }
            return Uni.createFrom().item(Optional.empty());
        }

        private JsonNode receiptOf(long chainId, String state, long block) {
            ObjectNode r = JSON.createObjectNode().put("status", "0x1").put("blockNumber", "0x" + Long.toHexString(block));
            ObjectNode log = r.putArray("logs").addObject().put("logIndex", "0x0").put("address", CONTRACT.get(chainId))
                    .put("data", anchoredData(state, SIGNER));
            log.putArray("topics").add(MandateVerifier.ANCHORED_TOPIC).add(mandateHash);
            return r;
        }

        @Override
        public Uni<JsonNode> logs(long chainId, String address, List<String> topics0, String toBlock) {
            assertThat(served).contains(chainId);
            calls.add("logs " + chainId + " " + address);
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            if (address.equals(CONTRACT.get(chainId))) {
                ObjectNode added = out.addObject().put("blockNumber", "0xa").put("logIndex", "0x0");
                added.putArray("topics").add(MandateVerifier.SIGNER_ADDED_TOPIC).add(topic(SIGNER)).add(topic(SIGNER));
            }
            return Uni.createFrom().item(out);
        }

        @Override
        public Uni<String> ethCall(long chainId, String to, String data) {
            throw new AssertionError("the contracts have a signer history");
        }
    }

    static String tx(long chainId, String state) {
        return "0x" + HexFormat.of().formatHex(org.web3j.crypto.Hash.sha3((chainId + ":" + state).getBytes(StandardCharsets.UTF_8)));
    }

    static String topic(String address) {
        return "0x" + "0".repeat(24) + address.substring(2);
    }

    /** ABI encoding of MandateAnchored's data: (string state, uint256 ts, address sender). */
    static String anchoredData(String state, String sender) {
        byte[] s = state.getBytes(StandardCharsets.UTF_8);
        String text = HexFormat.of().formatHex(s);
        text = text + "0".repeat((64 - text.length() % 64) % 64);
        return "0x" + word(0x60) + word(1_700_000_000L) + "0".repeat(24) + sender.substring(2) + word(s.length) + text;
    }

    static String word(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(64 - h.length()) + h;
    }

    /** The parties vector's proof anchored on {@code chains}: one anchor per (state, chain), each at its chain's contract. */
    static ObjectNode proof(Long... chains) throws Exception {
        ObjectNode p = MandateVerifierPartiesTest.proof();
        p.put("state", "completed").put("anchor_status", "anchored");
        ArrayNode anchors = p.putArray("anchors");
        for (int i = 0; i < STATES.size(); i++) {
            for (long c : chains) {
                anchors.addObject().put("to_state", STATES.get(i)).put("chain_id", c).put("contract", CONTRACT.get(c))
                        .put("tx_hash", tx(c, STATES.get(i))).put("block_number", 100 + i).put("log_index", 0).put("signer", SIGNER);
            }
        }
        p.putArray("pending_anchors");
        return p;
    }

    static JsonNode verify(JsonNode proof, AnchorChainClient chains) {
        MandateVerifier v = new MandateVerifier();
        v.mapper = JSON;
        v.chain = chains;
        return v.verify(proof).await().indefinitely();
    }

    static Map<String, JsonNode> checks(JsonNode report) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        report.get("checks").forEach(c -> out.put(c.get("name").asText(), c));
        return out;
    }

    @Test
    void bothChainsConfiguredEveryAnchorIsCheckedOnItsOwnChain() throws Exception {
        ObjectNode p = proof(PRIMARY, OTHER);
        FakeChains fake = new FakeChains(p.get("mandate_hash").asText(), PRIMARY, OTHER);
        JsonNode report = verify(p, fake);
        Map<String, JsonNode> c = checks(report);
        for (String s : STATES) {
            for (long chain : List.of(PRIMARY, OTHER)) {
                assertThat(c.get("anchor:" + s + "@" + chain).get("ok").asBoolean()).as(report.toString()).isTrue();
                assertThat(c.get("anchor_signer:" + s + "@" + chain).get("ok").asBoolean()).as(report.toString()).isTrue();
            }
        }
        assertThat(c.get("anchor:completed@" + OTHER).get("detail").asText()).startsWith("chain 8453 block 101 log 0");
        assertThat(c.get("domain").get("ok").asBoolean()).as("the other chain's own contract does not fail domain").isTrue();
        assertThat(report.get("failed")).isEmpty();
        // the only thing not checked: the buyer's HMAC signature
        assertThat(report.get("unverifiable").toString()).isEqualTo("[\"signature:buyer\"]");
        assertThat(fake.calls).contains("receipt 8453 " + tx(OTHER, "completed"), "receipt 84532 " + tx(PRIMARY, "completed"));
        assertThat(fake.calls.stream().filter(x -> x.startsWith("logs"))).as("one history per chain and contract")
                .containsExactlyInAnyOrder("logs 84532 " + CONTRACT.get(PRIMARY), "logs 8453 " + CONTRACT.get(OTHER));
    }

    @Test
    void aChainWithoutRpcIsNotCheckedNotFailed() throws Exception {
        ObjectNode p = proof(PRIMARY, OTHER);
        FakeChains fake = new FakeChains(p.get("mandate_hash").asText(), PRIMARY);
        JsonNode report = verify(p, fake);
        Map<String, JsonNode> c = checks(report);
        assertThat(c.get("anchor:completed@" + PRIMARY).get("ok").asBoolean()).isTrue();
        assertThat(c.get("anchor:completed@" + OTHER).get("ok").isNull()).isTrue();
        assertThat(c.get("anchor:completed@" + OTHER).get("detail").asText()).startsWith("not checked: no anchor RPC for chain 8453");
        assertThat(c).doesNotContainKey("anchor_signer:completed@" + OTHER);
        assertThat(c.get("domain").get("ok").asBoolean()).isTrue();
        assertThat(report.get("verdict").asText()).isEqualTo("unverifiable");
        assertThat(report.get("failed")).isEmpty();
        assertThat(report.get("unverifiable").toString()).contains("anchor:signed_by_all@8453", "anchor:completed@8453");
        assertThat(fake.calls).noneMatch(x -> x.contains(" 8453 "));
    }

    @Test
    void oneChainKeepsTheNamesOfOneChain() throws Exception {
        ObjectNode p = proof(PRIMARY);
        JsonNode report = verify(p, new FakeChains(p.get("mandate_hash").asText(), PRIMARY, OTHER));
        assertThat(checks(report)).containsKeys("anchor:signed_by_all", "anchor:completed", "anchor_signer:completed", "domain");
        assertThat(report.get("failed")).isEmpty();
    }

    @Test
    void aTamperedAnchorOnTheSecondChainFailsNamedWithItsChain() throws Exception {
        ObjectNode p = proof(PRIMARY, OTHER);
        ((ObjectNode) p.get("anchors").get(3)).put("tx_hash", tx(OTHER, "disputed"));
        JsonNode report = verify(p, new FakeChains(p.get("mandate_hash").asText(), PRIMARY, OTHER));
        assertThat(report.get("failed").toString()).isEqualTo("[\"anchor:completed@8453\"]");
    }

    @Test
    void anAnchorOnTheDomainChainAtAnotherContractFailsDomain() {
        JsonNode dom = JSON.createObjectNode().put("chainId", PRIMARY).put("verifyingContract", CONTRACT.get(PRIMARY));
        JsonNode other = JSON.createObjectNode().put("to_state", "completed").put("chain_id", OTHER).put("contract", CONTRACT.get(OTHER));
        JsonNode wrong = JSON.createObjectNode().put("to_state", "completed").put("chain_id", PRIMARY).put("contract", CONTRACT.get(OTHER));
        JsonNode right = JSON.createObjectNode().put("to_state", "completed").put("chain_id", PRIMARY).put("contract", CONTRACT.get(PRIMARY));
        assertThat(MandateVerifier.domainCheck(dom, List.of(right, other)).ok()).isTrue();
        assertThat(MandateVerifier.domainCheck(dom, List.of(right, wrong)).ok()).isFalse();
        assertThat(MandateVerifier.domainCheck(dom, List.of(other)).ok()).as("nothing on the domain's chain yet").isNull();
    }

    @Test
    void partiallyAnchoredTransitionsAreUnverifiable() throws Exception {
        ObjectNode p = proof(PRIMARY, OTHER);
        ((ArrayNode) p.get("anchors")).remove(3);
        p.put("anchor_status", "partially_anchored");
        ((ArrayNode) p.get("pending_anchors")).addObject().put("to_state", "completed").put("transition_id", "trn_1")
                .put("anchor_status", "partially_anchored");
        JsonNode report = verify(p, new FakeChains(p.get("mandate_hash").asText(), PRIMARY, OTHER));
        assertThat(report.get("failed")).isEmpty();
        assertThat(checks(report).get("pending_anchors").get("detail").asText()).contains("completed (partially_anchored)");
        assertThat(report.get("unverifiable").toString()).contains("pending_anchors");
    }

    @Test
    void anchorRpcUrlsAreChainIdUrlPairs() {
        assertThat(AnchorChainClient.parseRpcUrls("84532=http://127.0.0.1:8545, 8453=https://mainnet.base.org"))
                .containsExactly(Map.entry(84532L, "http://127.0.0.1:8545"), Map.entry(8453L, "https://mainnet.base.org"));
        assertThat(AnchorChainClient.parseRpcUrls("")).isEmpty();
        assertThat(AnchorChainClient.parseRpcUrls(null)).isEmpty();
        for (String bad : List.of("http://127.0.0.1:8545", "84532:http://x", "0x14a34=http://x", "84532=ftp://x", "84532=")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnchorChainClient.parseRpcUrls(bad))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("ANCHOR_RPC_URLS").hasMessageContaining("chainId=url");
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnchorChainClient.parseRpcUrls("1=http://a,1=http://b"))
                .hasMessageContaining("chain 1 is given twice");
    }
}
