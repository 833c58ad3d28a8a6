package dev.agentpay.invoice.invoices.rest;

import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.commons.validation.Violations;
import dev.agentpay.invoice.config.InvoiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.inject.Provider;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Annotation;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The Bean Validation rules of invoice-service's request records that no standard constraint expresses.
 * Limits that are configuration ({@code invoice.max-amount}, {@code invoice.expiry.min-ttl} / {@code max-ttl})
 * are read by the validators (CDI beans) when they validate. A constraint with a {@code code} attribute answers that error code
 * instead of {@code validation_error} ({@code commons.validation.ViolationMapper}), as the hand-written checks
 * did. Absent values ({@code null}) are left to {@code @NotNull}.
 */
public final class InvoiceConstraints {

    private InvoiceConstraints() {
    }

    /** Pragmatic address check (RFC 5321 lengths, one @, a dotted domain); deliverability is not ours to judge. */
    public static final String EMAIL = "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
            + "(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

    /** A canonical UUID (any case). */
    public static final String UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

    /** A USDC amount: greater than 0, at most 6 decimals, at most {@code invoice.max-amount}. */
    @Constraint(validatedBy = UsdcAmount.Check.class)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface UsdcAmount {
        String message() default "must be a positive USDC amount";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        @ApplicationScoped
        class Check extends ConfiguredCheck<UsdcAmount, BigDecimal> {
            @Override
            boolean check(BigDecimal v, InvoiceConfig config, ConstraintValidatorContext c) {
                String problem = v.signum() <= 0 ? "must be greater than 0"
                        : v.stripTrailingZeros().scale() > 6 ? "must have at most 6 decimal places (USDC has 6 decimals)"
                        : v.compareTo(config.maxAmount()) > 0 ? "must not exceed " + config.maxAmount().toPlainString()
                        : null;
                return Violations.refuseIf(c, problem);
            }
        }
    }

    /** {@code USDC} (any case, surrounding blanks ignored); else {@code unsupported_currency}. */
    @Constraint(validatedBy = OnlyUsdc.Check.class)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface OnlyUsdc {
        String message() default "only USDC is supported";

        String code() default "unsupported_currency";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        class Check extends PresentValueValidator<OnlyUsdc, String> {
            @Override
            protected boolean isValidPresent(String v, ConstraintValidatorContext c) {
                return "USDC".equals(v.trim().toUpperCase(Locale.ROOT));
            }
        }
    }

    /**
     * An invoice deadline: an ISO 8601 timestamp with offset, from {@code invoice.expiry.min-ttl} (60 s) to
     * {@code max-ttl} (30 days) ahead of now.
     */
    @Constraint(validatedBy = Deadline.Check.class)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Deadline {
        String message() default "must be an ISO 8601 timestamp with offset, e.g. 2026-01-31T12:00:00Z";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        @ApplicationScoped
        class Check extends ConfiguredCheck<Deadline, String> {
            @Override
            boolean check(String v, InvoiceConfig config, ConstraintValidatorContext c) {
                Instant at = instant(v);
                if (at == null) {
                    return false;
                }
                Instant now = Instant.now();
                var expiry = config.expiry();
                if (at.isBefore(now.plus(expiry.minTtl()))) {
                    return Violations.refuse(c, "must be at least " + expiry.minTtl().toSeconds() + " s in the future");
                }
                if (at.isAfter(now.plus(expiry.maxTtl()))) {
                    return Violations.refuse(c, "must be at most " + expiry.maxTtl().toDays() + " days in the future");
                }
                return true;
            }
        }
    }

    /** A check of a present value against invoice-service's configuration, read when it validates. */
    abstract static class ConfiguredCheck<A extends Annotation, T> extends PresentValueValidator<A, T> {

        // a provider: Hibernate Validator builds its validators while the application starts, before
        // configuration mappings can be injected
        @Inject
        Provider<InvoiceConfig> config;

        @Override
        protected boolean isValidPresent(T v, ConstraintValidatorContext c) {
            return check(v, config.get(), c);
        }

        abstract boolean check(T v, InvoiceConfig config, ConstraintValidatorContext c);
    }

    /** The instant a deadline names, or {@code null} when it is not an ISO 8601 timestamp with offset. */
    public static Instant instant(String v) {
        try {
            return OffsetDateTime.parse(v.trim()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
