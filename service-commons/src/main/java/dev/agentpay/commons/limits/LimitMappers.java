package dev.agentpay.commons.limits;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.agentpay.commons.error.ErrorMappers;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** A body past the JSON parser's limits is a 400 naming the limit, not a generic parse error. */
public class LimitMappers {

    @ServerExceptionMapper(priority = 0)
    public Response constraints(StreamConstraintsException e) {
        return ErrorMappers.response(400, "invalid_json", "request body exceeds a JSON limit (depth, string, number or name length)");
    }
}
