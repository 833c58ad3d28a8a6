package dev.agentpay.commons.auth;

import dev.agentpay.commons.rest.OpenApiContract;
import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * Marks an operator endpoint (class or method) that needs the {@code x-admin-key}: {@link AuthFilters}
 * enforces it, and the {@code @SecurityRequirement} it carries documents it (see {@link PartnerAuthenticated}).
 * Do not combine it with {@link PartnerAuthenticated} on one operation: both filters would run, while the
 * document would name only the method's annotation.
 */
@NameBinding
@SecurityRequirement(name = OpenApiContract.ADMIN_KEY)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface AdminOnly {
}
