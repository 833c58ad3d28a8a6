package dev.agentpay.commons.auth;

import dev.agentpay.commons.rest.OpenApiContract;
import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * Marks a resource (class or method) that needs a valid partner {@code x-api-key}: {@link AuthFilters}
 * enforces it, and the {@code @SecurityRequirement} it carries documents it on every operation it marks
 * (SmallRye OpenAPI reads annotations through composed annotations), so the two cannot drift.
 */
@NameBinding
@SecurityRequirement(name = OpenApiContract.API_KEY)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface PartnerAuthenticated {
}
