package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Stop and start with data (issue 16): the stack is stopped as Ctrl-C stops it and started again on the
 * same state directory. Every chain comes back with its state (the blocks seen before the stop, the
 * anchor contract, the anchors and the settled payment), and anchoring and settlement go on. Runs after
 * the other ITs (FaultIT included) and before {@link StackStopIT}, which then stops the restarted stack.
 */
@Order(Integer.MAX_VALUE - 1)
class StackRestartIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> CHAINS = List.of("anchor", "base", "polygon", "arbitrum", "skale");

    @Test
    void aRestartedStackFindsEveryChainsStateAndGoesOnAnchoringAndSettling() throws Exception {
        Map<String, String> before = SharedStack.env();
        MandateFlows flows = new MandateFlows(before.get("BASE_URL"), before.get("API_KEY"), before.get("SIGNING_SECRET"));
        String mandate = anchoredMandate(flows);
        JsonNode anchoredBefore = flows.get(mandate).get("transitions");
        String invoice = paidInvoice(before, "base");
        Map<String, long[]> heads = new LinkedHashMap<>();
        Map<String, String> headHashes = new LinkedHashMap<>();
        for (String chain : CHAINS) {
            EvmRpc rpc = new EvmRpc(rpcUrl(before, chain));
            JsonNode head = rpc.call("eth_getBlockByNumber", "latest", false);
            heads.put(chain, new long[] {Long.decode(head.get("number").asText())});
            headHashes.put(chain, head.get("hash").asText());
        }
        long signerNonce = nonce(before, before.get("ANCHOR_SIGNER_ADDRESS"));

        Map<String, String> after = SharedStack.restart(StackRestartIT::everyChainStateWasSavedWhole);

        // every chain holds what it held: the head seen before the stop, with the same hash
        for (String chain : CHAINS) {
            JsonNode block = new EvmRpc(rpcUrl(after, chain)).call("eth_getBlockByNumber", "0x" + Long.toHexString(heads.get(chain)[0]), false);
            assertThat(block.isNull()).as(chain + " block " + heads.get(chain)[0] + " after the restart").isFalse();
            assertThat(block.get("hash").asText()).as(chain + " block hash").isEqualTo(headHashes.get(chain));
        }
        assertThat(after.get("ANCHOR_CONTRACT_ADDRESS")).isEqualTo(before.get("ANCHOR_CONTRACT_ADDRESS"));
        assertThat(after.get("ANCHOR_BASE_CONTRACT_ADDRESS")).as("the second anchor chain's contract").isEqualTo(
                before.get("ANCHOR_BASE_CONTRACT_ADDRESS"));
        assertThat(nonce(after, after.get("ANCHOR_SIGNER_ADDRESS"))).isGreaterThanOrEqualTo(signerNonce);
        MandateFlows flowsAfter = new MandateFlows(after.get("BASE_URL"), after.get("API_KEY"), after.get("SIGNING_SECRET"));
        assertThat(flowsAfter.get(mandate).get("transitions")).isEqualTo(anchoredBefore);
        String proto = flowsAfter.get(mandate).get("proto_mandate_hash").asText();
        assertThat(anchorLogs(after, proto)).as("the anchors of the mandate before the stop, still on chain, once").isEqualTo(2);
        assertThat(invoiceStatus(after, invoice)).isEqualTo("SETTLED");

        // and both pipelines go on
        String next = anchoredMandate(flowsAfter);
        assertThat(anchorLogs(after, flowsAfter.get(next).get("proto_mandate_hash").asText())).isEqualTo(2);
        paidInvoice(after, "base");
    }

    /** While the stack is stopped: each chain's state file is a whole snapshot with its mark. */
    private static void everyChainStateWasSavedWhole(Path stateDir) {
        for (String chain : CHAINS) {
            Path state = stateDir.resolve("data/anvil-" + chain + ".json");
            try {
                assertThat(JSON.readTree(state.toFile()).isObject()).as(state + " is a JSON object").isTrue();
            } catch (java.io.IOException e) {
                throw new AssertionError(state + " unreadable after the stop: " + e.getMessage(), e);
            }
            assertThat(Files.exists(AnvilNode.markFile(state))).as(AnvilNode.markFile(state) + " exists").isTrue();
        }
    }

    private static String rpcUrl(Map<String, String> env, String chain) {
        return chain.equals("anchor") ? env.get("ANCHOR_RPC_URL") : env.get("CHAIN_" + chain.toUpperCase() + "_RPC_URL");
    }

    private static long nonce(Map<String, String> env, String address) {
        return Long.decode(new EvmRpc(env.get("ANCHOR_RPC_URL")).call("eth_getTransactionCount", address, "latest").asText());
    }

    /** A mandate signed by both parties, waited for until both transitions are anchored on every anchor chain of the stack. */
    private static String anchoredMandate(MandateFlows flows) throws Exception {
        String id = flows.create();
        String sig = flows.signature(flows.get(id));
        flows.sign(id, "proposer", sig);
        flows.sign(id, "counterparty", sig);
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            JsonNode t = flows.get(id).get("transitions");
            return t.size() == 3 && "anchored".equals(t.get(1).get("anchor_status").asText())
                    && "anchored".equals(t.get(2).get("anchor_status").asText()) ? t : null;
        }, Objects::nonNull);
        return id;
    }

    /** An invoice on {@code chain} paid with a USDC transfer from the development payer, waited for until SETTLED. */
    private static String paidInvoice(Map<String, String> env, String chain) throws Exception {
        String body = given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body("{\"amount\":1.25,\"chain\":\"" + chain + "\",\"description\":\"restart check\"}")
                .post("/v1/invoices").then().statusCode(201).extract().asString();
        JsonNode inv = JSON.readTree(body).get("data");
        JsonNode pd = inv.get("paymentDetails");
        String data = "0xa9059cbb" + EvmRpc.word(pd.get("paymentAddress").asText())
                + EvmRpc.word(new BigInteger(pd.get("payableAtomic").asText()));
        EvmRpc rpc = new EvmRpc(rpcUrl(env, chain));
        rpc.transact(env.get("DEV_PAYER_ADDRESS"), pd.get("usdcAddress").asText(), data);
        String id = inv.get("id").asText();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> "SETTLED".equals(invoiceStatus(env, id)) ? id : null, Objects::nonNull);
        return id;
    }

    private static String invoiceStatus(Map<String, String> env, String id) {
        return given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY")).get("/v1/invoices/" + id)
                .then().statusCode(200).extract().path("data.status");
    }

    private static int anchorLogs(Map<String, String> env, String mandateHash) {
        var filter = new LinkedHashMap<String, Object>();
        filter.put("address", env.get("ANCHOR_CONTRACT_ADDRESS"));
        filter.put("fromBlock", "0x0");
        filter.put("toBlock", "latest");
        filter.put("topics", Arrays.asList(null, mandateHash));
        return new EvmRpc(env.get("ANCHOR_RPC_URL")).call("eth_getLogs", filter).size();
    }
}
