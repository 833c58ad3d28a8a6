package dev.agentpay.discovery.checkout.rest;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.discovery.checkout.domain.CheckoutView;
import dev.agentpay.discovery.checkout.service.CheckoutService;
import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import dev.agentpay.discovery.pages.config.PagesConfig;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The hosted payment page of every invoice, {@code /checkout/{id}}: public, no key (the invoice id is the
 * capability, as for {@code GET /v1/invoices/{id}/pay}), rendered on the server (Qute, every text escaped) so it
 * reads with JavaScript off; {@code /checkout/static/checkout.js} refreshes its status from
 * {@code /checkout/{id}/status}. The security headers (CSP without inline script, {@code frame-ancestors 'none'},
 * {@code Referrer-Policy: no-referrer}) are set for every {@code /checkout} and {@code /console} answer by
 * {@code quarkus.http.filter.pages} (application.properties).
 */
@Path("/checkout")
@Tag(name = "Pages")
public class CheckoutResource {

    static final String ID = "the invoice id (a UUID); a malformed or unknown id is 404";

    @Inject
    CheckoutService service;

    @Inject
    PagesConfig pages;

    @Inject
    @Location("checkout/page.html")
    Template page;

    @Inject
    @Location("checkout/missing.html")
    Template missing;

    @GET
    @Path("/{id}")
    @Produces(MediaType.TEXT_HTML)
    @Operation(hidden = true) // an HTML page for people, not an API operation (README "Pages")
    public Uni<Response> page(@PathParam("id") String id) {
        return service.view(id)
                .chain(v -> v.isPresent()
                        ? page.data("v", v.get()).data("pollMs", pages.statusPollInterval().toMillis()).createUni()
                                .map(html -> html(200, html))
                        : missing.data("title", "Invoice not found")
                                .data("message", "No invoice has this link. Check the link you were given.").createUni()
                                .map(html -> html(404, html)))
                .onFailure(UpstreamUnavailableException.class).recoverWithUni(e -> missing.data("title", "Try again shortly")
                        .data("message", "The invoice could not be loaded just now. Reload this page in a moment.").createUni()
                        .map(html -> html(503, html)));
    }

    @GET
    @Path("/{id}/status")
    @Produces(MediaType.APPLICATION_JSON)
    @SecurityRequirementsSet(value = {})
    @Operation(operationId = "getCheckoutStatus", summary = "Read a payment page's status line",
            description = "What the hosted payment page shows as the invoice's status, for its script to refresh without a reload:"
                    + " `state` pending, partial, paid, expired or paid_late, the line's `text` and `detail`, and once paid the"
                    + " transaction (`txHash`, `txUrl` when the chain has an explorer). No key: the invoice id is the capability."
                    + " `Cache-Control: no-store`.")
    @APIResponse(responseCode = "200", description = "the status line",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = CheckoutStatus.class)))
    @APIResponse(responseCode = "404", description = "no invoice with this id, or a malformed id (`invoice_not_found`)")
    @APIResponse(responseCode = "503", description = "invoice-service did not answer (`upstream_unavailable`)")
    public Uni<Response> status(@Parameter(description = ID) @PathParam("id") String id) {
        return service.view(id)
                .map(v -> {
                    CheckoutView.Status s = v.orElseThrow(() -> ApiException.notFound("invoice_not_found", "no invoice with this id"))
                            .status();
                    return Response.ok(Envelope.of(new CheckoutStatus(s.state(), s.text(), s.detail(), s.txHash(), s.txUrl())))
                            .header("Cache-Control", "no-store").build();
                })
                .onFailure(UpstreamUnavailableException.class).transform(e -> new ApiException(503, "upstream_unavailable",
                        "the invoice could not be read just now; try again"));
    }

    /** The status line of a payment page. */
    @Schema(name = "CheckoutStatus")
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record CheckoutStatus(
            @Schema(required = true, enumeration = {"pending", "partial", "paid", "expired", "paid_late"}) String state,
            @Schema(required = true, description = "the status as the page says it (`Awaiting payment`, `Partially paid`, `Paid`, `Expired`, `Paid late`)") String text,
            @Schema(description = "what was received, or what to do") String detail,
            @Schema(description = "the completing transaction, once paid") String txHash,
            @Schema(description = "the transaction on the chain's explorer, when one is configured") String txUrl) {
    }

    static Response html(int status, String body) {
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).entity(body)
                .header("Cache-Control", "no-store").build();
    }
}
