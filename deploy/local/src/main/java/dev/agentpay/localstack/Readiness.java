package dev.agentpay.localstack;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Waits for a part of the stack to answer {@code 200} on a URL. */
final class Readiness {

    private Readiness() {
    }

    static void awaitHttp(HttpClient http, String url, Duration timeout, ManagedProcess owner) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (owner != null && !owner.isAlive()) {
                throw new IllegalStateException(owner.name() + " exited; see " + owner.log());
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            Ports.sleep(150);
        }
        throw new IllegalStateException(url + " not ready after " + timeout + (owner == null ? "" : "; see " + owner.log()));
    }
}
