package dev.agentpay.localstack.testing;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;

/**
 * Registers {@link OpenApiContractFilter} with RestAssured before every {@code @QuarkusTest} method (once per
 * test JVM). Quarkus loads it through {@code META-INF/services} from the test class path of every service
 * (deploy/local is a test dependency of each), in the class loader the tests' RestAssured lives in.
 */
public class OpenApiContractCallback implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        synchronized (OpenApiContractCallback.class) {
            if (RestAssured.filters().stream().noneMatch(f -> f instanceof OpenApiContractFilter)) {
                RestAssured.filters(new OpenApiContractFilter());
            }
        }
    }
}
