package dev.agentpay.localstack.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Points the application at the JVM's shared real Kafka broker (topics already created). */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("kafka.bootstrap.servers", SharedServers.kafka().bootstrapServers());
    }

    @Override
    public void stop() {
        // the broker outlives one application; it stops with the JVM
    }
}
