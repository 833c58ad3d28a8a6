package dev.agentpay.localstack;

import dev.agentpay.commons.error.ErrorBody;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.streams.ReadStream;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyResponse;

/**
 * The gateway reads a request's body whole, up to a bound, before it takes a connection to the service:
 * a client that sends its body slowly then holds only its own connection to the gateway (until the body
 * deadline of {@link GatewayClientGuard} answers {@code 408}), never one of the gateway's pooled
 * connections to a service. A body over the bound is answered {@code 413 payload_too_large} at once.
 */
final class BufferedBody {

    static final String TOO_LARGE = ErrorBody.json("payload_too_large", "request body too large");

    private BufferedBody() {
    }

    /** Reads the body of the proxied request (if any), then sends the request to the service. */
    static Future<ProxyResponse> thenSend(ProxyContext context, long maxBytes) {
        HttpServerRequest in = context.request().proxiedRequest();
        String length = in.getHeader("content-length");
        boolean chunked = in.getHeader("transfer-encoding") != null;
        if (!chunked && (length == null || length.trim().equals("0"))) {
            return context.sendRequest();
        }
        if (length != null && !chunked) {
            long declared;
            try {
                declared = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                declared = Long.MAX_VALUE;
            }
            if (declared > maxBytes) {
                refuse(in, 413, TOO_LARGE);
                return Promise.<ProxyResponse>promise().future();
            }
        }
        Promise<ProxyResponse> sent = Promise.promise();
        Buffer whole = Buffer.buffer();
        ReadStream<Buffer> stream = context.request().getBody().stream();
        boolean[] refused = {false};
        stream.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if (whole.length() + (long) chunk.length() > maxBytes) {
                refused[0] = true;
                refuse(in, 413, TOO_LARGE);
                return;
            }
            whole.appendBuffer(chunk);
        });
        // The connection closed or was cut at the body deadline (GatewayClientGuard answered 408): nothing
        // is sent to the service and the proxy's exchange is left unanswered, as its client is gone.
        stream.exceptionHandler(e -> refused[0] = true);
        stream.endHandler(v -> {
            if (!refused[0]) {
                context.request().setBody(Body.body(whole));
                context.sendRequest().onComplete(sent);
            }
        });
        stream.resume();
        return sent.future();
    }

    private static void refuse(HttpServerRequest in, int status, String body) {
        if (!in.response().headWritten() && !in.response().ended()) {
            in.response().setStatusCode(status).putHeader("content-type", "application/json")
                    .putHeader("connection", "close").end(body).onComplete(v -> in.connection().close());
        } else {
            in.connection().close();
        }
    }
}
