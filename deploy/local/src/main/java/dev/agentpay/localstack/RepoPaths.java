package dev.agentpay.localstack;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository from wherever a launcher or test runs (a module directory or the root). */
public final class RepoPaths {

    private RepoPaths() {
    }

    public static Path root() {
        Path p = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path c = p; c != null; c = c.getParent()) {
            if (Files.isRegularFile(c.resolve("mvnw")) && Files.isDirectory(c.resolve("deploy/local"))) {
                return c;
            }
        }
        throw new IllegalStateException("cannot find the repository root above " + p);
    }

    public static Path nodeDir() {
        return root().resolve("deploy/local/node");
    }

    /** An executable installed by npm into {@code deploy/local/node/node_modules/.bin}. */
    public static Path nodeBin(String name) {
        Path bin = nodeDir().resolve("node_modules/.bin").resolve(name);
        if (!Files.isExecutable(bin)) {
            throw new IllegalStateException(bin + " is missing: build deploy/local first (it runs npm install)");
        }
        return bin;
    }

    /** Scratch space for test servers: under the build output, never in the source tree. */
    public static Path testScratch(String name) {
        try {
            Path base = Path.of(System.getProperty("user.dir")).resolve("target/local-stack");
            Files.createDirectories(base);
            return Files.createTempDirectory(base, name);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
