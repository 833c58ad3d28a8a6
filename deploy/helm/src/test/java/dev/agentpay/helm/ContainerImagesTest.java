package dev.agentpay.helm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfiles of the six services follow Quarkus's layout and agree with the chart (port 8080, non-root
 * user, the image name the chart pulls). No Docker engine exists here: this checks the files, not a build.
 */
class ContainerImagesTest {

    @Test
    void everyServiceHasAJvmAndANativeDockerfileInQuarkusConventions() throws IOException {
        for (String service : Services.DATABASES.keySet()) {
            Path module = Chart.repoRoot().resolve(service);
            assertThat(Files.readString(module.resolve("pom.xml")))
                    .as("the chart's service name is the Maven module's artifactId")
                    .contains("<artifactId>" + service + "</artifactId>");

            List<String> jvm = Files.readAllLines(module.resolve("src/main/docker/Dockerfile.jvm"));
            assertThat(instruction(jvm, "FROM")).startsWith("registry.access.redhat.com/ubi9/openjdk-17:");
            assertThat(jvm).contains(
                    "COPY --chown=185 target/quarkus-app/lib/ /deployments/lib/",
                    "COPY --chown=185 target/quarkus-app/*.jar /deployments/",
                    "COPY --chown=185 target/quarkus-app/app/ /deployments/app/",
                    "COPY --chown=185 target/quarkus-app/quarkus/ /deployments/quarkus/");
            assertThat(instruction(jvm, "EXPOSE")).isEqualTo("8080");
            assertThat(instruction(jvm, "USER")).isEqualTo("185");
            assertThat(instruction(jvm, "ENV HTTP_PORT=")).isEqualTo("8080");
            assertThat(instruction(jvm, "ENTRYPOINT")).contains("run-java.sh");
            // AppCDS (issue 34 item 4): the image writes its archive with its own JDK, for the path it runs the
            // jar from, and the JVM options name it.
            assertThat(instruction(jvm, "RUN")).startsWith(
                    "java -XX:ArchiveClassesAtExit=/deployments/app-cds.jsa -Dquarkus.appcds.generate=true"
                            + " -jar /deployments/quarkus-run.jar");
            assertThat(instruction(jvm, "ENV JAVA_OPTS_APPEND=")).contains("-XX:SharedArchiveFile=/deployments/app-cds.jsa");
            assertThat(instruction(jvm, "ENV JAVA_APP_JAR=")).isEqualTo("\"/deployments/quarkus-run.jar\"");

            List<String> nat = Files.readAllLines(module.resolve("src/main/docker/Dockerfile.native"));
            assertThat(instruction(nat, "FROM")).startsWith("registry.access.redhat.com/ubi9/ubi-minimal:");
            assertThat(nat).anyMatch(l -> l.startsWith("COPY ") && l.contains("target/*-runner /work/application"));
            assertThat(instruction(nat, "EXPOSE")).isEqualTo("8080");
            assertThat(instruction(nat, "USER")).isEqualTo("1001");
            assertThat(instruction(nat, "ENTRYPOINT")).contains("./application");
        }
    }

    @Test
    void theChartPullsTheImageNamedAfterTheServiceOnTheImagesPort() {
        var m = Chart.renderDefault();
        for (String service : Services.DATABASES.keySet()) {
            var c = m.deploymentOf(service).at("/spec/template/spec/containers/0");
            assertThat(c.path("image").asText()).isEqualTo("ghcr.io/agentpay/" + service + ":0.1.0");
            assertThat(c.at("/ports/0/containerPort").asInt()).isEqualTo(8080);
        }
        var nativeFlavor = Chart.render(List.of(), java.util.Map.of("image.flavor", "native"));
        assertThat(nativeFlavor.deploymentOf("anchor-service").at("/spec/template/spec/containers/0/image").asText())
                .isEqualTo("ghcr.io/agentpay/anchor-service:0.1.0-native");
    }

    private static String instruction(List<String> lines, String prefix) {
        return lines.stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()).trim())
                .reduce((a, b) -> b).orElseThrow(() -> new AssertionError("no " + prefix));
    }
}
