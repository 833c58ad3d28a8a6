package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.partner.service.PartnerBootstrap;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The partner bootstrap file (the Helm chart's {@code PARTNERS_BOOTSTRAP_FILE}) imported at start-up. */
@QuarkusTest
@TestProfile(PartnerBootstrapTest.Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class PartnerBootstrapTest {

    // Fixed values: the profile and the test instance are loaded by different class loaders, so random
    // values would differ between the file Quarkus reads and the assertions.
    static final String KEY = "sk_" + "a1".repeat(32);
    static final String SECRET = "bootstrap-secret-0123456789";
    static final String REVOKED_KEY = "sk_" + "b2".repeat(32);
    static final Path FILE = write(Path.of("target/partners-bootstrap-test.json"), """
            {"partners": [
              {"id": "ptn_boot_a", "name": "Boot A", "api_key": "%s", "signing_secret": "%s"},
              {"id": "ptn_boot_b", "name": "Boot B", "api_key_hash": "%s", "signing_secret": "other-secret-0123456789", "status": "revoked"}
            ]}""".formatted(KEY, SECRET, ApiKeys.hash(REVOKED_KEY)));

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mandate.partners-bootstrap-file", FILE.toString());
        }
    }

    @Inject
    PartnerBootstrap bootstrap;

    @Inject
    Pool pool;

    @Test
    void partnersOfTheFileExistAndTheirKeysAndSecretsWork() {
        admin().get("/admin/partners/ptn_boot_a").then().statusCode(200)
                .body("data.name", equalTo("Boot A")).body("data.status", equalTo("active"));
        admin().get("/admin/partners/ptn_boot_b").then().statusCode(200).body("data.status", equalTo("revoked"));
        Api.awaitKey(KEY, true);
        TestMandate m = Api.create(new TestPartner("ptn_boot_a", KEY, SECRET));
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);
        Api.awaitKey(REVOKED_KEY, false);
    }

    @Test
    void aRepeatedImportChangesNothingAndPublishesNothing() {
        long before = partnerEvents();
        assertThat(bootstrap.run(FILE)).isZero();
        assertThat(partnerEvents()).isEqualTo(before);
    }

    @Test
    void aBadFileIsRefusedWithoutQuotingSecretsAndImportsNothing() {
        String secret = "never-in-a-message-0123456789";
        Path unknownField = write("{\"partners\":[{\"id\":\"ptn_x\",\"name\":\"X\",\"api_key\":\"%s\",\"signing_secret\":\"%s\",\"extra\":1}]}"
                .formatted(ApiKeys.generate(), secret));
        Path shortSecret = write("{\"partners\":[{\"id\":\"ptn_x\",\"name\":\"X\",\"api_key\":\"%s\",\"signing_secret\":\"short\"}]}"
                .formatted(ApiKeys.generate()));
        Path bothKeys = write("{\"partners\":[{\"id\":\"ptn_x\",\"name\":\"X\",\"api_key\":\"%s\",\"api_key_hash\":\"%s\",\"signing_secret\":\"%s\"}]}"
                .formatted(ApiKeys.generate(), ApiKeys.hash(ApiKeys.generate()), secret));
        Path notJson = write("{\"partners\":[{\"id\":\"ptn_x\",\"signing_secret\":\"" + secret + "\"");
        Path notAList = write("{\"partner\":[]}");
        for (Path bad : new Path[] {unknownField, shortSecret, bothKeys, notJson, notAList}) {
            assertThatThrownBy(() -> bootstrap.run(bad)).as(bad.toString())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining(bad.toString())
                    .hasMessageNotContaining(secret);
        }
        // A key already held by another partner stops the import at that entry.
        Path stolenKey = write("{\"partners\":[{\"id\":\"ptn_thief\",\"name\":\"T\",\"api_key\":\"%s\",\"signing_secret\":\"%s\"}]}"
                .formatted(KEY, secret));
        assertThatThrownBy(() -> bootstrap.run(stolenKey)).hasMessageContaining("ptn_thief").hasMessageNotContaining(KEY);
        admin().get("/admin/partners/ptn_x").then().statusCode(404);
        admin().get("/admin/partners/ptn_thief").then().statusCode(404);
    }

    private long partnerEvents() {
        return pool.query("select count(*) from outbox_event where topic = 'partners'").execute()
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
    }

    private static Path write(String content) {
        try {
            return write(Files.createTempFile("partners", ".json"), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path write(Path f, String content) {
        try {
            Files.writeString(f, content);
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
