package dev.agentpay.anchor;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.anchor.anchoring.service.AnchorPipeline;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.anchor.support.RotationChainTestResource;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.abi.EventEncoder;
import org.web3j.abi.FunctionEncoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Event;
import org.web3j.abi.datatypes.Function;
import org.web3j.crypto.Credentials;
import org.web3j.protocol.core.DefaultBlockParameterName;
import org.web3j.protocol.core.methods.request.EthFilter;
import org.web3j.protocol.core.methods.request.Transaction;
import org.web3j.protocol.core.methods.response.EthCall;
import org.web3j.protocol.core.methods.response.Log;
import org.web3j.utils.Numeric;

/**
 * Signer rotation with an overlap, under load (README, "Signer rotation"): transitions keep arriving while the
 * operator rotates from anvil's account #0 to the configured next key; the old signer authorises the next on the
 * contract, the next signs every later batch, the old one's open transactions are confirmed, then the next removes
 * it. Every transition is anchored exactly once, each receipt names the signer whose transaction carries it and
 * that signer was authorised on the contract at that block, and the retired signer can no longer anchor. A second
 * request while one is in progress is a 409 saying what it waits for.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(RotationChainTestResource.class)
class SignerRotationTest {

    static final String OLD = AnvilNode.DEV_ADDRESS_0.toLowerCase(Locale.ROOT);
    static final String NEXT = Credentials.create(RotationChainTestResource.NEXT_KEY).getAddress().toLowerCase(Locale.ROOT);
    static final Event ADDED = new Event("SignerAdded", List.of(new TypeReference<Address>(true) { }, new TypeReference<Address>(true) { }));
    static final Event REMOVED = new Event("SignerRemoved", List.of(new TypeReference<Address>(true) { }, new TypeReference<Address>(true) { }));

    @Inject
    AnchorPipeline pipeline;

    @Inject
    Pool pool;

    @BeforeAll
    static void collect() {
        KafkaIo.startCollecting();
    }

    private static RequestSpecification admin() {
        return given().header("x-admin-key", ConfigProvider.getConfig().getValue("platform.auth.admin-key", String.class));
    }

    @Test
    void rotatesUnderLoadAnchoringEveryTransitionOnceAndTheRetiredSignerCannotAnchor() throws Exception {
        assertThat(NEXT).isEqualTo(RotationChainTestResource.NEXT_ADDRESS.toLowerCase(Locale.ROOT));
        await("signer held").atMost(Duration.ofSeconds(20)).until(pipeline::active);
        admin().get("/admin/v1/anchor/signers").then().statusCode(200)
                .body("data.active", equalTo(OLD)).body("data.next", equalTo(NEXT)).body("data.in_progress", equalTo(null));
        given().post("/admin/v1/anchor/signers/rotate").then().statusCode(401).body("error.code", equalTo("unauthorized"));

        // load: a mandate with two anchored transitions every 100 ms, before, during and after the rotation
        List<MandateEvent> sent = new CopyOnWriteArrayList<>();
        Map<String, String> hashOf = new HashMap<>();
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        load.scheduleAtFixedRate(() -> {
            String hash = KafkaIo.randomHash();
            List<MandateEvent> flow = KafkaIo.flow(KafkaIo.mandateId(), hash, "proposed", "signed_by_proposer", "signed_by_both");
            flow.forEach(KafkaIo::publish);
            KafkaIo.flush();
            flow.subList(1, 3).forEach(e -> {
                synchronized (hashOf) {
                    hashOf.put(e.transitionId(), hash);
                }
                sent.add(e);
            });
        }, 0, 100, TimeUnit.MILLISECONDS);
        try {
            await("anchoring under load by the first signer").atMost(Duration.ofSeconds(30))
                    .until(() -> sent.stream().filter(e -> !KafkaIo.receipts(e.transitionId()).isEmpty()).count() >= 6);

            JsonPath rotation = admin().post("/admin/v1/anchor/signers/rotate").then().statusCode(202)
                    .body("data.status", equalTo("authorising")).body("data.from_signer", equalTo(OLD))
                    .body("data.to_signer", equalTo(NEXT)).extract().jsonPath();
            // asked again while it runs: 409, saying what it waits for, nothing changes
            admin().post("/admin/v1/anchor/signers/rotate").then().statusCode(409)
                    .body("error.code", equalTo("rotation_in_progress")).body("error.message", containsString("waits for"));

            await("rotation done").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> admin()
                    .get("/admin/v1/anchor/signers").then().statusCode(200).extract().jsonPath().getString("data.rotations[0].status")
                    .equals("done"));
            long doneAt = sent.size();
            await("anchoring goes on with the next signer").atMost(Duration.ofSeconds(20)).until(() -> sent.size() >= doneAt + 10);
            assertThat(rotation.getLong("data.id")).isPositive();
        } finally {
            load.shutdownNow();
            load.awaitTermination(5, TimeUnit.SECONDS);
        }

        JsonPath signers = admin().get("/admin/v1/anchor/signers").then().statusCode(200)
                .body("data.active", equalTo(NEXT)).body("data.in_progress", equalTo(null)).extract().jsonPath();
        long authorisedBlock = signers.getLong("data.rotations[0].authorised_block");
        long retiredBlock = signers.getLong("data.rotations[0].retired_block");
        assertThat(retiredBlock).isGreaterThanOrEqualTo(authorisedBlock);

        List<MandateEvent> all = new ArrayList<>(sent);
        AnchoringTest.awaitReceipts(all, Duration.ofSeconds(60));
        // exactly once, each receipt naming the signer whose transaction carries it, valid at that block
        await("each transition anchored once").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(15)).untilAsserted(() -> {
            for (MandateEvent e : all) {
                assertThat(KafkaIo.receipts(e.transitionId())).as(e.transitionId()).hasSize(1);
            }
        });
        int byOld = 0;
        int byNext = 0;
        for (MandateEvent e : all) {
            AnchorReceiptEvent r = KafkaIo.receipts(e.transitionId()).get(0).event();
            String sender = ChainView.anchoredLog(r.txHash(), r.logIndex()).sender.toLowerCase(Locale.ROOT);
            assertThat(r.signer()).as("receipt of " + e.transitionId()).isEqualTo(sender);
            assertThat(r.contract()).isEqualToIgnoringCase(RotationChainTestResource.rotationContract());
            if (sender.equals(OLD)) {
                byOld++;
                assertThat(r.blockNumber()).isLessThanOrEqualTo(retiredBlock);
            } else {
                assertThat(sender).isEqualTo(NEXT);
                byNext++;
                assertThat(r.blockNumber()).isGreaterThanOrEqualTo(authorisedBlock);
            }
        }
        assertThat(byOld).as("anchored by the old signer").isPositive();
        assertThat(byNext).as("anchored by the next signer").isPositive();
        assertThat(pool.preparedQuery("select count(*) from anchor_receipt where signer is null").execute()
                .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0)).isZero();

        // the contract's public record: SignerAdded(next, by old) then SignerRemoved(old, by next)
        List<Log> added = logs(ADDED);
        assertThat(added).extracting(l -> topicAddress(l, 1)).containsExactly(OLD, NEXT);
        assertThat(topicAddress(added.get(1), 2)).isEqualTo(OLD);
        assertThat(added.get(1).getBlockNumber().longValueExact()).isEqualTo(authorisedBlock);
        List<Log> removed = logs(REMOVED);
        assertThat(removed).extracting(l -> topicAddress(l, 1)).containsExactly(OLD);
        assertThat(topicAddress(removed.get(0), 2)).isEqualTo(NEXT);
        assertThat(removed.get(0).getBlockNumber().longValueExact()).isEqualTo(retiredBlock);

        // the retired signer can no longer anchor; the next one can
        String anchorCall = FunctionEncoder.encode(new Function("anchor", List.of(
                new org.web3j.abi.datatypes.generated.Bytes32(Numeric.hexStringToByteArray(KafkaIo.randomHash())),
                new org.web3j.abi.datatypes.Utf8String("completed")), List.of()));
        assertThat(call(OLD, anchorCall).isReverted()).isTrue();
        assertThat(call(NEXT, anchorCall).isReverted()).isFalse();

        // nonces: each signer's stored next nonce meets the chain's
        await("no open transaction").atMost(Duration.ofSeconds(20)).until(() -> pool.query(
                "select count(*) from anchor_tx where status = 'SIGNED'").execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0) == 0);
        for (String s : List.of(OLD, NEXT)) {
            long stored = pool.preparedQuery("select next_nonce from signer_nonce where signer = $1").execute(Tuple.of(s))
                    .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0);
            assertThat(stored).as("next nonce of " + s).isEqualTo(ChainView.transactionCount(s));
        }

        // asked again with no other key than the retired one: refused, nothing changes
        admin().post("/admin/v1/anchor/signers/rotate").then().statusCode(409).body("error.code", equalTo("signer_retired"));
    }

    private static List<Log> logs(Event event) throws Exception {
        EthFilter f = new EthFilter(DefaultBlockParameterName.EARLIEST, DefaultBlockParameterName.LATEST,
                RotationChainTestResource.rotationContract());
        f.addSingleTopic(EventEncoder.encode(event));
        return ChainView.web3j().ethGetLogs(f).send().getLogs().stream().map(r -> (Log) r.get()).toList();
    }

    private static String topicAddress(Log l, int i) {
        String t = l.getTopics().get(i);
        return "0x" + t.substring(t.length() - 40).toLowerCase(Locale.ROOT);
    }

    private static EthCall call(String from, String data) throws Exception {
        return ChainView.web3j().ethCall(Transaction.createEthCallTransaction(from, RotationChainTestResource.rotationContract(), data),
                DefaultBlockParameterName.LATEST).send();
    }

}
