package dev.agentpay.commons.auth;

import dev.agentpay.commons.rest.OpenApiContract;
import jakarta.ws.rs.NameBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/** Marks an operator endpoint that needs the {@code x-admin-key}. */
@NameBinding
@SecurityRequirement(name = OpenApiContract.ADMIN_KEY)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface AdminOnly {
}
