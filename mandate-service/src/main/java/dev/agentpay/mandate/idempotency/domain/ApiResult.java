package dev.agentpay.mandate.idempotency.domain;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.config.ApiJson;

/**
 * What a state-changing operation answers: its status and the JSON body (the platform's envelope), whether
 * it is a stored answer replayed for a repeated {@code Idempotency-Key}, or a refusal that must still commit
 * its transaction (a lazily applied expiry). Idempotent replays store and return exactly these bytes. How
 * this becomes an HTTP response (content type, the replay header) is the rest layer's
 * ({@code mandates.rest.Responses}).
 */
public record ApiResult(int status, String json, boolean replayed, ApiException committedRefusal) {

    public static ApiResult of(int status, Object data) {
        return new ApiResult(status, ApiJson.envelope(data), false, null);
    }

    /** A stored answer, replayed for a repeated Idempotency-Key. */
    public static ApiResult replay(int status, String json) {
        return new ApiResult(status, json, true, null);
    }

    /** A refusal raised after the transaction commits (its other effects are kept). */
    public static ApiResult refusedAfterCommit(ApiException refusal) {
        return new ApiResult(refusal.status(), null, false, refusal);
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
