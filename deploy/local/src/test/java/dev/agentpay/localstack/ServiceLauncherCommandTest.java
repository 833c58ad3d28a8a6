package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command a service starts with: the AppCDS archive the build wrote next to the jar (issue 34 item 4) is
 * named by its absolute path before {@code -jar}, a build without one starts as before, and SERVICE_JAVA_OPTS
 * still comes through (after the archive flag, so it can override it).
 */
class ServiceLauncherCommandTest {

    @TempDir
    Path app;

    private static final Path JAVA = Path.of("/jdk/bin/java");

    @Test
    void theArchiveNextToTheJarIsNamedByItsAbsolutePathBeforeTheOptionsAndTheJar() throws IOException {
        Path jar = Files.createFile(app.resolve("quarkus-run.jar"));
        Files.createFile(app.resolve("app-cds.jsa"));

        List<String> cmd = ServiceLauncher.command(JAVA, ServiceLauncher.DEFAULT_JAVA_OPTS, jar);

        assertThat(cmd.get(0)).isEqualTo("/jdk/bin/java");
        assertThat(cmd.get(1)).isEqualTo("-XX:SharedArchiveFile=" + app.toAbsolutePath().resolve("app-cds.jsa"));
        assertThat(Path.of(cmd.get(1).substring("-XX:SharedArchiveFile=".length()))).isAbsolute();
        assertThat(cmd.subList(2, cmd.size() - 2)).containsExactly(ServiceLauncher.DEFAULT_JAVA_OPTS.split(" "));
        assertThat(cmd.subList(cmd.size() - 2, cmd.size())).containsExactly("-jar", jar.toAbsolutePath().toString());
    }

    @Test
    void aBuildWithoutTheArchiveStartsWithoutTheFlag() throws IOException {
        Path jar = Files.createFile(app.resolve("quarkus-run.jar"));

        List<String> cmd = ServiceLauncher.command(JAVA, ServiceLauncher.DEFAULT_JAVA_OPTS, jar);

        assertThat(cmd).noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));
        assertThat(cmd).containsExactly(List.of(
                "/jdk/bin/java", "-XX:+UseSerialGC", "-Xms32m", "-Xmx384m", "-Xss512k", "-XX:ReservedCodeCacheSize=96m",
                "-XX:+ExitOnOutOfMemoryError", "-jar", jar.toAbsolutePath().toString()).toArray(String[]::new));
    }

    @Test
    void serviceJavaOptsComeAfterTheArchiveFlagSoTheyCanTurnItOff() throws IOException {
        Path jar = Files.createFile(app.resolve("quarkus-run.jar"));
        Files.createFile(app.resolve("app-cds.jsa"));

        List<String> cmd = ServiceLauncher.command(JAVA, "  -Xmx256m\t-Xshare:off  ", jar);

        assertThat(cmd).containsExactly("/jdk/bin/java", "-XX:SharedArchiveFile=" + app.toAbsolutePath().resolve("app-cds.jsa"),
                "-Xmx256m", "-Xshare:off", "-jar", jar.toAbsolutePath().toString());
    }

    @Test
    void emptyServiceJavaOptsMeanNoOptionsNotAnEmptyArgument() throws IOException {
        Path jar = Files.createFile(app.resolve("quarkus-run.jar"));

        assertThat(ServiceLauncher.command(JAVA, "", jar))
                .containsExactly("/jdk/bin/java", "-jar", jar.toAbsolutePath().toString());
    }

    @Test
    void aDirectoryNamedLikeTheArchiveIsNoArchive() throws IOException {
        Path jar = Files.createFile(app.resolve("quarkus-run.jar"));
        Files.createDirectory(app.resolve("app-cds.jsa"));

        assertThat(ServiceLauncher.command(JAVA, "-Xmx64m", jar)).noneMatch(a -> a.startsWith("-XX:SharedArchiveFile"));
    }
}
