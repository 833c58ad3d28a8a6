package dev.agentpay.localstack.testing;

import java.lang.annotation.Annotation;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * The fast test tier (issue 33 item 12; root README, "Fast tests"): with {@code -Dagentpay.tests=fast} (the root
 * pom's {@code fast} profile sets it) every {@code @QuarkusTest} (and {@code @QuarkusIntegrationTest}, {@code
 * @QuarkusMainTest}) is left out, so a module's plain unit tests run in seconds without PostgreSQL, Kafka or a
 * Quarkus start. Plain tests that start servers themselves carry {@code @Tag("servers")}, which the profile
 * excludes too. A JUnit Platform filter found through {@code META-INF/services} on every service's test class path
 * (deploy/local is a test dependency of each); without the property it excludes nothing.
 */
public class FastTier implements PostDiscoveryFilter {

    public static final String PROPERTY = "agentpay.tests";
    static final Set<String> QUARKUS = Set.of("io.quarkus.test.junit.QuarkusTest", "io.quarkus.test.junit.QuarkusIntegrationTest",
            "io.quarkus.test.junit.main.QuarkusMainTest");

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (!"fast".equals(System.getProperty(PROPERTY))) {
            return FilterResult.included("every tier");
        }
        Class<?> type = testClass(descriptor.getSource());
        return type != null && startsQuarkus(type)
                ? FilterResult.excluded("a Quarkus test: not in the fast tier")
                : FilterResult.included("a plain test");
    }

    private static Class<?> testClass(Optional<TestSource> source) {
        if (source.isEmpty()) {
            return null;
        }
        try {
            if (source.get() instanceof ClassSource c) {
                return c.getJavaClass();
            }
            if (source.get() instanceof MethodSource m) {
                return m.getJavaClass();
            }
        } catch (RuntimeException e) {
            return null;
        }
        return null;
    }

    /** Whether the class, an enclosing or a super class is a Quarkus test (the annotation, or one composed of it). */
    static boolean startsQuarkus(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass() != null && c.getSuperclass() != Object.class ? c.getSuperclass()
                : c.getEnclosingClass()) {
            for (Annotation a : c.getAnnotations()) {
                if (quarkus(a.annotationType(), new HashSet<>())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean quarkus(Class<? extends Annotation> type, Set<Class<?>> seen) {
        if (QUARKUS.contains(type.getName())) {
            return true;
        }
        if (!seen.add(type) || type.getName().startsWith("java.lang.annotation")) {
            return false;
        }
        for (Annotation meta : type.getAnnotations()) {
            if (quarkus(meta.annotationType(), seen)) {
                return true;
            }
        }
        return false;
    }
}
