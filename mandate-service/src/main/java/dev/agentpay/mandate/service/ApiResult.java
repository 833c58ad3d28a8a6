package dev.agentpay.mandate.service;

import dev.agentpay.commons.error.ApiException;
import java.util.Map;

/**
 * What a state-changing operation answers: status and JSON body, or a refusal that must still commit
 * its transaction (a lazily applied expiry). Idempotent replays store and return exactly these bytes.
 */
public record ApiResult(int status, String json, Map<String, String> headers, ApiException committedRefusal) {

    public static ApiResult of(int status, Object data) {
        return new ApiResult(status, ApiJson.envelope(data), Map.of(), null);
    }

    public static ApiResult of(int status, Object data, Map<String, String> headers) {
        return new ApiResult(status, ApiJson.envelope(data), headers, null);
    }

    /** A refusal raised after the transaction commits (its other effects are kept). */
    public static ApiResult refusedAfterCommit(ApiException refusal) {
        return new ApiResult(refusal.status(), null, Map.of(), refusal);
    }

    /** Throws the committed refusal, if any. */
    public ApiResult orThrow() {
        if (committedRefusal != null) {
            throw committedRefusal;
        }
        return this;
    }

    /** Whether this answer may be replayed for a repeated Idempotency-Key: only successes are stored. */
    public boolean storable() {
        return committedRefusal == null && status >= 200 && status < 300;
    }
}
