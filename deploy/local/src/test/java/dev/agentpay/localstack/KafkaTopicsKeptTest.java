package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.events.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher starts the services while the broker starts only when the broker's data already holds every topic
 * ({@link KafkaServer#topicsKept}); otherwise a consumer's subscription could create a missing topic with the
 * broker's defaults.
 */
class KafkaTopicsKeptTest {

    @TempDir
    Path dir;
    Path data;

    @org.junit.jupiter.api.BeforeEach
    void brokerDataDirectory() throws IOException {
        data = Files.createDirectories(dir.resolve("data")); // where KafkaServer.start keeps its logs
    }

    @Test
    void aFormattedBrokerWithEveryTopicKeepsThem() throws IOException {
        Files.writeString(data.resolve("meta.properties"), "version=1\n");
        for (Topics.TopicSpec t : Topics.ALL) {
            Files.createDirectories(data.resolve(t.name() + "-0"));
        }
        assertThat(KafkaServer.topicsKept(dir)).isTrue();
    }

    @Test
    void aTopicMissingFromTheDataMeansTheServicesWaitForTheTopicsToBeCreated() throws IOException {
        Files.writeString(data.resolve("meta.properties"), "version=1\n");
        for (Topics.TopicSpec t : Topics.ALL.subList(1, Topics.ALL.size())) {
            Files.createDirectories(data.resolve(t.name() + "-0"));
        }
        assertThat(KafkaServer.topicsKept(dir)).isFalse();
    }

    @Test
    void aFirstStartHasNoTopics() {
        assertThat(KafkaServer.topicsKept(dir)).isFalse();
        assertThat(KafkaServer.topicsKept(dir.resolve("absent"))).isFalse();
    }
}
