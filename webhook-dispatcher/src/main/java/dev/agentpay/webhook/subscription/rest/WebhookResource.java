package dev.agentpay.webhook.subscription.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.webhook.domain.EventTypes;
import dev.agentpay.webhook.subscription.domain.Subscription;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.CreateRequest;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.DeliveryView;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.RotateRequest;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.SubscriptionView;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.SubscriptionWithSecret;
import dev.agentpay.webhook.subscription.rest.WebhookDtos.UpdateRequest;
import dev.agentpay.webhook.subscription.service.SubscriptionService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.List;
import java.util.UUID;

/** Webhook subscriptions and their delivery log, for the partner of the {@code x-api-key}. */
@Path("/v1/webhooks")
@PartnerAuthenticated
@Scopes.WebhooksManage
@Tag(name = "Webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class WebhookResource {

    static final String WEAK_SECRET_OR_BAD_INPUT = "`weak_secret`: the secret is shorter than 24 or longer than 256 characters,"
            + " not printable ASCII without spaces, has fewer than 8 distinct characters, is a `whsec_` secret whose base64 is"
            + " not 24 to 64 bytes, or (rotate) equals the current one; `unknown_event_type`; a bad `url`"
            + " (`invalid_url`, or `url_not_allowed` for a private, loopback or otherwise unsafe address); or `validation_error` naming the field";

    @Inject
    SubscriptionService service;

    @Inject
    CurrentPartner partner;

    @POST
    @Operation(operationId = "createWebhook", summary = "Subscribe a URL to event types")
    @APIResponse(responseCode = "201", description = "subscribed; the answer carries `standardWebhooksSecret`, the `whsec_` form of the"
            + " secret for Standard Webhooks libraries (no later answer does)", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = SubscriptionWithSecret.class)))
    @APIResponse(responseCode = "400", description = WEAK_SECRET_OR_BAD_INPUT)
    public Uni<Response> create(@Valid @NotNull CreateRequest r) {
        return service.create(partner.id(), r.url(), r.events(), r.secret(), r.description())
                .map(s -> Response.created(URI.create("/v1/webhooks/" + s.id()))
                        .entity(Envelope.of(SubscriptionWithSecret.of(s, r.secret()))).build());
    }

    @GET
    @Operation(operationId = "listWebhooks", summary = "List your webhook subscriptions")
    public Uni<Envelope<List<SubscriptionView>>> list() {
        return service.list(partner.id()).map(l -> Envelope.of(l.stream().map(SubscriptionView::of).toList()));
    }

    @GET
    @Path("event-types")
    @Operation(operationId = "listWebhookEventTypes", summary = "List the event types a subscription can name")
    public Envelope<List<String>> eventTypes() {
        return Envelope.of(EventTypes.ALL);
    }

    @GET
    @Path("{id}")
    @Operation(operationId = "getWebhook", summary = "Read one webhook subscription")
    public Uni<Envelope<SubscriptionView>> get(@PathParam("id") String id) {
        return view(service.get(partner.id(), uuid(id)));
    }

    @PATCH
    @Path("{id}")
    @Operation(operationId = "updateWebhook", summary = "Change a subscription's URL, event types or description")
    public Uni<Envelope<SubscriptionView>> update(@PathParam("id") String id, @Valid @NotNull UpdateRequest r) {
        return view(service.update(partner.id(), uuid(id), r.url(), r.events(), r.description()));
    }

    @POST
    @Path("{id}/rotate-secret")
    @Operation(operationId = "rotateWebhookSecret", summary = "Replace a subscription's secret, the old one valid for an overlap")
    @APIResponse(responseCode = "200", description = "rotated; the answer carries the new secret's `standardWebhooksSecret`",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SubscriptionWithSecret.class)))
    @APIResponse(responseCode = "400", description = WEAK_SECRET_OR_BAD_INPUT)
    public Uni<Envelope<SubscriptionWithSecret>> rotate(@PathParam("id") String id, @Valid @NotNull RotateRequest r) {
        return service.rotate(partner.id(), uuid(id), r.secret(), r.overlapSeconds())
                .map(s -> Envelope.of(SubscriptionWithSecret.of(s, r.secret())));
    }

    @POST
    @Path("{id}/disable")
    @Operation(operationId = "disableWebhook", summary = "Stop deliveries to a subscription")
    public Uni<Envelope<SubscriptionView>> disable(@PathParam("id") String id) {
        return view(service.disable(partner.id(), uuid(id)));
    }

    @POST
    @Path("{id}/enable")
    @Operation(operationId = "enableWebhook", summary = "Resume deliveries to a disabled subscription")
    public Uni<Envelope<SubscriptionView>> enable(@PathParam("id") String id) {
        return view(service.enable(partner.id(), uuid(id)));
    }

    @DELETE
    @Operation(operationId = "deleteWebhook", summary = "Delete a webhook subscription")
    @APIResponse(responseCode = "204", description = "deleted")
    @APIResponse(responseCode = "404", description = "no such webhook subscription (`webhook_not_found`)")
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        return service.delete(partner.id(), uuid(id)).map(v -> Response.noContent().build());
    }

    @GET
    @Path("{id}/deliveries")
    @Operation(operationId = "listWebhookDeliveries", summary = "List a subscription's deliveries, newest first",
            description = "The log keeps every pending delivery and those that ended within the history retention (30 days by default, `webhook.history.retention`); older ones leave it with their attempts.")
    public Uni<Envelope<List<DeliveryView>>> deliveries(@PathParam("id") String id,
            @Parameter(description = "only deliveries in this status") @QueryParam("status")
            @Pattern(regexp = "\\s*(pending|succeeded|failed)?\\s*", message = "must be pending, succeeded or failed") String status,
            @Parameter(description = PageLimit.DESCRIPTION + " (50, at most 100)") @QueryParam("limit")
            @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER) String limit,
            @Parameter(description = "`id` of the last delivery of the previous page") @QueryParam("before") String before) {
        String only = status == null || status.isBlank() ? null : status.trim();
        return service.deliveries(partner.id(), uuid(id), only, PageLimit.of(limit, 50, 100),
                        before == null ? null : uuid(before, "delivery_not_found"))
                .map(l -> Envelope.of(l.stream().map(d -> DeliveryView.of(d, null)).toList()));
    }

    @GET
    @Path("{id}/deliveries/{deliveryId}")
    @Operation(operationId = "getWebhookDelivery", summary = "Read one delivery with its attempts")
    public Uni<Envelope<DeliveryView>> delivery(@PathParam("id") String id, @PathParam("deliveryId") String deliveryId) {
        return service.delivery(partner.id(), uuid(id), uuid(deliveryId, "delivery_not_found"))
                .map(d -> Envelope.of(DeliveryView.of(d)));
    }

    @POST
    @Path("{id}/deliveries/{deliveryId}/redeliver")
    @Operation(operationId = "redeliverWebhookDelivery", summary = "Send a delivery again now")
    @APIResponse(responseCode = "202", description = "queued for delivery now", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DeliveryView.class)))
    @APIResponse(responseCode = "404", description = "no such subscription or delivery")
    @APIResponse(responseCode = "409", description = "the subscription is disabled: enable it first (`webhook_disabled`)")
    public Uni<Response> redeliver(@PathParam("id") String id, @PathParam("deliveryId") String deliveryId) {
        return service.redeliver(partner.id(), uuid(id), uuid(deliveryId, "delivery_not_found"))
                .map(d -> Response.accepted(Envelope.of(DeliveryView.of(d))).build());
    }

    /** A subscription as every answer but create and rotate-secret shows it (no secret). */
    private static Uni<Envelope<SubscriptionView>> view(Uni<Subscription> subscription) {
        return subscription.map(s -> Envelope.of(SubscriptionView.of(s)));
    }

    private static UUID uuid(String id) {
        return uuid(id, "webhook_not_found");
    }

    /** A malformed id cannot name anything: the same 404 as an unknown one. */
    private static UUID uuid(String id, String notFoundCode) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound(notFoundCode, "no such " + (notFoundCode.startsWith("delivery") ? "delivery" : "webhook subscription"));
        }
    }
}
