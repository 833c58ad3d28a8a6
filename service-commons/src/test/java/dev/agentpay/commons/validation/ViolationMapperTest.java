package dev.agentpay.commons.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentpay.commons.error.ErrorBody;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Valid;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.List;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.HibernateValidatorConfiguration;
import org.jboss.resteasy.reactive.RestQuery;
import org.junit.jupiter.api.Test;

class ViolationMapperTest {

    record Line(@NotBlank String sku, @Positive int quantity) {
    }

    /** A constraint that keeps the error code of the hand-written check it replaced. */
    @jakarta.validation.Constraint(validatedBy = OnlyUsdc.Check.class)
    @java.lang.annotation.Target(java.lang.annotation.ElementType.FIELD)
    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
    @interface OnlyUsdc {
        String message() default "only USDC is supported";

        String code() default "unsupported_currency";

        Class<?>[] groups() default {};

        Class<? extends jakarta.validation.Payload>[] payload() default {};

        class Check implements jakarta.validation.ConstraintValidator<OnlyUsdc, String> {
            @Override
            public boolean isValid(String v, jakarta.validation.ConstraintValidatorContext c) {
                return v == null || v.equals("USDC");
            }
        }
    }

    record Price(@OnlyUsdc String currency, @Positive int cents) {
    }

    record Order(@JsonProperty("triggered_by") @Size(max = 5, message = "must be at most 5 characters") String triggeredBy,
            @NotNull @Valid List<@Valid Line> lines, List<@NotBlank String> tags) {
    }

    public static class Resource {
        public void create(@NotNull @Valid Order body) {
        }

        public void price(@NotNull @Valid Price body) {
        }

        public void list(@QueryParam("page_size") @Positive int pageSize, @RestQuery @Size(max = 3) String cursor) {
        }
    }

    /** What CDI generates for an intercepted bean: the method overridden without its parameter annotations. */
    public static class Resource_Subclass extends Resource {
        @Override
        public void list(int pageSize, String cursor) {
        }
    }

    private final Validator validator = validator();

    private static Validator validator() {
        HibernateValidatorConfiguration c = Validation.byProvider(HibernateValidator.class).configure();
        new JsonPropertyNames().customize(c);
        return c.buildValidatorFactory().getValidator();
    }

    private ErrorBody.Detail answer(String method, Object... args) throws Exception {
        return answer(new Resource(), method, args);
    }

    private ErrorBody.Detail answer(Resource bean, String method, Object... args) throws Exception {
        Method m = null;
        for (Method candidate : Resource.class.getMethods()) {
            if (candidate.getName().equals(method)) {
                m = candidate;
            }
        }
        var violations = validator.forExecutables().validateParameters(bean, m, args);
        assertThat(violations).isNotEmpty();
        Response r = new ViolationMapper().violation(new ConstraintViolationException(violations));
        assertThat(r.getStatus()).isEqualTo(400);
        return ((ErrorBody) r.getEntity()).error();
    }

    @Test
    void namesTheJsonFieldNotTheJavaComponent() throws Exception {
        var e = answer("create", new Order("toolong", List.of(), null));
        assertThat(e.code()).isEqualTo("validation_error");
        assertThat(e.message()).isEqualTo("triggered_by: must be at most 5 characters");
    }

    @Test
    void namesNestedFieldsWithListPositions() throws Exception {
        var e = answer("create", new Order(null, List.of(new Line("a", 1), new Line(" ", 1)), null));
        assertThat(e.message()).startsWith("lines[1].sku: ");
        var tags = answer("create", new Order(null, List.of(), List.of("x", "")));
        assertThat(tags.message()).startsWith("tags[1]: ");
    }

    @Test
    void picksTheSameViolationEveryTime() throws Exception {
        Order bad = new Order("toolong", null, List.of(""));
        String first = answer("create", bad).message();
        for (int i = 0; i < 20; i++) {
            assertThat(answer("create", bad).message()).isEqualTo(first);
        }
        assertThat(first).startsWith("lines: ");
    }

    @Test
    void anAbsentBodyIsTheSameRefusalAsBeforeTypedBinding() throws Exception {
        var e = answer("create", (Object) null);
        assertThat(e.code()).isEqualTo("invalid_json");
        assertThat(e.message()).isEqualTo("request body is required");
    }

    @Test
    void aConstraintMayNameItsOwnErrorCode() throws Exception {
        var e = answer("price", new Price("EUR", 5));
        assertThat(e.code()).isEqualTo("unsupported_currency");
        assertThat(e.message()).isEqualTo("currency: only USDC is supported");
        // the first violation by field name decides the code: cents before currency
        var both = answer("price", new Price("EUR", 0));
        assertThat(both.code()).isEqualTo("validation_error");
        assertThat(both.message()).startsWith("cents: ");
    }

    @Test
    void queryParametersAreNamedAsOnTheWire() throws Exception {
        assertThat(answer("list", 0, "ab").message()).startsWith("page_size: ");
        assertThat(answer("list", 1, "abcd").message()).startsWith("cursor: ");
        assertThat(answer(new Resource_Subclass(), "list", 1, "abcd").message()).startsWith("cursor: ");
    }
}
