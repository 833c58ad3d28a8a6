package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.helm.Chart.Manifests;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every topic of service-commons {@link Topics#ALL} is a Strimzi KafkaTopic with the same settings, and no other. */
class KafkaTopicsTest {

    static Stream<Arguments> renderings() {
        return Stream.of(Arguments.of("default", Chart.renderDefault()),
                Arguments.of("production", Chart.renderProduction()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("renderings")
    void everyTopicOfTopicsAllIsAKafkaTopicWithTheSameSettings(String name, Manifests m) {
        assertThat(m.ofKind("KafkaTopic").stream().map(t -> t.at("/spec/topicName").asText()))
                .containsExactlyInAnyOrderElementsOf(Topics.ALL.stream().map(Topics.TopicSpec::name).toList());
        for (Topics.TopicSpec spec : Topics.ALL) {
            JsonNode t = m.one("KafkaTopic", spec.name());
            assertThat(t.path("apiVersion").asText()).startsWith("kafka.strimzi.io/");
            assertThat(t.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo("agentpay");
            assertThat(t.at("/spec/partitions").asInt()).as(spec.name()).isEqualTo(spec.partitions());
            assertThat(t.at("/spec/config/cleanup.policy").asText()).as(spec.name())
                    .isEqualTo(spec.compacted() ? "compact" : "delete");
            assertThat(t.at("/spec/config/retention.ms").asLong()).as(spec.name()).isEqualTo(spec.retentionMs());
            int replicas = t.at("/spec/replicas").asInt();
            int minIsr = t.at("/spec/config/min.insync.replicas").asInt();
            assertThat(replicas).isGreaterThan(minIsr).isGreaterThanOrEqualTo(3);
            assertThat(t.at("/metadata/annotations/helm.sh~1resource-policy").asText()).isEqualTo("keep");
        }
        String cm = m.deploymentOf("mandate-service").at("/spec/template/spec/containers/0/envFrom/0/configMapRef/name").asText();
        assertThat(m.one("ConfigMap", cm).at("/data/KAFKA_BOOTSTRAP_SERVERS").asText())
                .isEqualTo("agentpay-kafka-bootstrap:9092");
    }

    @Test
    void theOptionalStrimziClusterIsOffByDefaultAndRunsTheTopicOperatorWhenOn() {
        assertThat(Chart.renderDefault().ofKind("Kafka")).isEmpty();
        Manifests prod = Chart.renderProduction();
        JsonNode kafka = prod.one("Kafka", "agentpay");
        assertThat(kafka.at("/spec/entityOperator").has("topicOperator")).isTrue();
        assertThat(kafka.at("/metadata/annotations/strimzi.io~1kraft").asText()).isEqualTo("enabled");
        assertThat(kafka.at("/spec/kafka/config/auto.create.topics.enable").asBoolean(true)).isFalse();
        JsonNode pool = prod.one("KafkaNodePool", "dual-role");
        assertThat(pool.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo("agentpay");
        assertThat(pool.at("/spec/replicas").asInt()).isEqualTo(3);
        JsonNode user = prod.one("KafkaUser", "agentpay-kafka-user");
        assertThat(user.at("/spec/authentication/type").asText()).isEqualTo("scram-sha-512");
    }
}
