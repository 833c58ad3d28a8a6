package dev.agentpay.discovery.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Starts the {@link UpstreamStub} and points discovery-service at it for mandate-service,
 * invoice-service and the public base URL (the stub forwards discovery paths back to the app).
 */
public class UpstreamStubResource implements QuarkusTestResourceLifecycleManager {

    private static UpstreamStub stub;

    public static synchronized UpstreamStub stub() {
        if (stub == null) {
            try {
                stub = new UpstreamStub();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(stub::close, "stop-upstream-stub"));
        }
        return stub;
    }

    @Override
    public Map<String, String> start() {
        String url = stub().url();
        return Map.of(
                "discovery.mandate-service-url", url,
                "discovery.invoice-service-url", url,
                "discovery.public-base-url", url,
                "discovery.upstream-timeout", "3s",
                "platform.auth.admin-key", AdminKey.VALUE);
    }

    @Override
    public void stop() {
        // shared across the test JVM; stopped by the shutdown hook
    }

    /** The admin key the test application is configured with. */
    public static final class AdminKey {
        public static final String VALUE = "test-admin-key-0123456789";

        private AdminKey() {
        }
    }
}
