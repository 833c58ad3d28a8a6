package dev.agentpay.mandate.mandates.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.List;
import org.hibernate.validator.HibernateValidator;
import org.junit.jupiter.api.Test;

/** {@link PartyId} without a service: the character policy and the wallet look-alike rule, each its own violation. */
class PartyIdTest {

    record Body(@PartyId String party) {
    }

    static final String TAIL = "8453:0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

    private final Validator validator = Validation.byProvider(HibernateValidator.class).configure()
            .buildValidatorFactory().getValidator();

    private List<String> messages(String party) {
        return validator.validate(new Body(party)).stream().map(ConstraintViolation::getMessage).sorted().toList();
    }

    @Test
    void namesWalletsAndNullPass() {
        assertThat(messages("agent:buyer-1")).isEmpty();
        assertThat(messages("Ren\u00e9e")).isEmpty();
        assertThat(messages("eip155:" + TAIL)).isEmpty();
        assertThat(messages(null)).isEmpty();
    }

    @Test
    void eachBrokenRuleIsItsOwnViolation() {
        assertThat(messages("buyer\u202E1")).containsExactly(
                "must not contain control, bidi or zero-width characters (U+202E at character 6)");
        assertThat(messages("Rene\u0301e")).containsExactly(
                "must be in Unicode normalization form NFC (compose accents: \"é\" as U+00E9, not \"e\" + U+0301)");
        assertThat(messages("EIP155:" + TAIL)).singleElement().asString().startsWith("reads as a wallet but is not written as one");
        assertThat(messages("EIP155:" + TAIL + "\u200B")).hasSize(2)
                .anySatisfy(m -> assertThat(m).startsWith("must not contain control, bidi or zero-width characters (U+200B"))
                .anySatisfy(m -> assertThat(m).startsWith("reads as a wallet but is not written as one"));
    }
}
