package dev.agentpay.mandate.budget.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.chains.KnownChain;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.mandate.budget.domain.BudgetTerms;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.budget.service.BudgetService;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The typed bodies of budgets and charges (mandate-service README, "Budgets and charges"). */
public final class BudgetApi {

    /** ISO 8601 durations of days, hours, minutes and seconds ({@code java.time.Duration}'s form, no sign, no fraction). */
    static final String PERIOD_PATTERN = "^P(?:[0-9]{1,6}D)?(?:T(?:[0-9]{1,8}H)?(?:[0-9]{1,10}M)?(?:[0-9]{1,12}S)?)?$";
    static final String PERIOD_RULE = "must be an ISO 8601 duration of days, hours, minutes or seconds such as P1D, "
            + "PT12H or P30D (months and years have no fixed length)";
    /** The invoice lifetime bounds invoice-service accepts (invoice.expiry.min-ttl / max-ttl). */
    static final long EXPIRES_IN_MIN = 60;
    static final long EXPIRES_IN_MAX = 30L * 24 * 3600;

    private BudgetApi() {
    }

    /** The optional {@code budget} of {@code POST /v1/mandates}: part of what the parties sign. */
    @Schema(name = "MandateBudgetRequest", additionalProperties = Schema.False.class,
            description = "signed with the mandate (canonical member `budget`, EIP-712 struct `Budget`); amounts are "
                    + "decimal strings of USDC, kept as sent")
    public record BudgetRequest(
            @NotNull @Pattern(regexp = Usdc.PATTERN, message = Usdc.RULE)
            @Schema(required = true, examples = "1.00", pattern = Usdc.PATTERN) String amount,
            @NotNull @Pattern(regexp = "^USDC$", message = "must be \"USDC\"")
            @Schema(required = true, enumeration = "USDC") String currency,
            @Pattern(regexp = PERIOD_PATTERN, message = PERIOD_RULE)
            @Schema(description = "renewal period from signed_by_both (at least PT1H), or null: one budget for the "
                    + "mandate's life", examples = "P1D") String period,
            @JsonProperty("max_per_charge") @Pattern(regexp = Usdc.PATTERN, message = Usdc.RULE)
            @Schema(description = "largest single charge (at most `amount`), or null", examples = "0.25") String maxPerCharge) {

        /** The signed terms, after the rules a pattern cannot say (positive, limits, period bounds): 400 naming the field. */
        public BudgetTerms terms(Duration minPeriod, Duration maxPeriod) {
            if (Usdc.atomic(amount).signum() == 0) {
                throw ApiException.invalidField("budget.amount", "must be greater than 0");
            }
            if (maxPerCharge != null) {
                BigInteger max = Usdc.atomic(maxPerCharge);
                if (max.signum() == 0) {
                    throw ApiException.invalidField("budget.max_per_charge", "must be greater than 0");
                }
                if (max.compareTo(Usdc.atomic(amount)) > 0) {
                    throw ApiException.invalidField("budget.max_per_charge", "must not be more than budget.amount ("
                            + amount + ")");
                }
            }
            if (period != null) {
                Duration d;
                try {
                    d = Duration.parse(period);
                } catch (DateTimeParseException e) {
                    throw ApiException.invalidField("budget.period", PERIOD_RULE);
                }
                if (d.compareTo(minPeriod) < 0) {
                    throw ApiException.invalidField("budget.period", "must be at least " + minPeriod + " (got " + period + ")");
                }
                if (d.compareTo(maxPeriod) > 0) {
                    throw ApiException.invalidField("budget.period", "must be at most " + maxPeriod + " (got " + period + ")");
                }
            }
            return new BudgetTerms(amount, currency, period, maxPerCharge);
        }
    }

    /** {@code POST /v1/mandates/{id}/charges}. */
    @Schema(name = "CreateChargeRequest", additionalProperties = Schema.False.class)
    public record CreateChargeRequest(
            @NotNull @ChargeAmount
            @Schema(required = true, description = "USDC, more than 0, at most 6 decimals: a JSON number or a decimal "
                    + "string (read exactly)", type = SchemaType.STRING, examples = "0.10") JsonNode amount,
            @NotNull @KnownChain
            @Schema(required = true, enumeration = {"base", "skale", "polygon", "arbitrum", "solana"},
                    description = "the invoice's chain; anything else is 400 `unsupported_chain`") String chain,
            @Size(max = 1000) @Schema(description = "shown on the invoice") String description,
            @JsonProperty("expires_in") @Min(EXPIRES_IN_MIN) @Max(EXPIRES_IN_MAX)
            @Schema(description = "seconds until the invoice expires (60 to 2592000); absent: invoice-service's default "
                    + "(24 h). An expired invoice releases the charge's reservation") Long expiresIn) {

        public BudgetService.NewCharge toNewCharge() {
            String d = description == null || description.isBlank() ? null : description.trim();
            return new BudgetService.NewCharge(Usdc.atomic(ChargeAmount.Check.decimal(amount)), chain.trim().toLowerCase(),
                    d, expiresIn);
        }
    }

    /** The 201 answer of a charge. */
    @Schema(name = "ChargeCreated")
    public record ChargeCreated(
            @JsonProperty("charge_id") @Schema(required = true) String chargeId,
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @JsonProperty("invoice_id") @Schema(required = true) String invoiceId,
            @Schema(required = true, examples = "0.1") String amount,
            @Schema(required = true, enumeration = {"pending", "settled", "released"},
                    description = "pending when created (a replay answers the first answer)") String status,
            @JsonProperty("expires_at") @Schema(description = "the invoice's deadline") String expiresAt,
            @JsonProperty("budget_remaining") @Schema(required = true, description = "what remains of the budget "
                    + "period after this reservation") String budgetRemaining,
            @Schema(required = true, implementation = Map.class, description = "the invoice's paymentDetails: where and "
                    + "how much to pay (Invoice object of invoice-service)") Map<String, Object> paymentDetails,
            @JsonProperty("paid_from") @Schema(enumeration = {"invoice", "escrow"}, description = "`escrow`: "
                    + "the mandate is funded in escrow and the service releases the amount from it (the invoice settles with "
                    + "settlementSource `escrow`; do not pay it by hand); `invoice`: pay the invoice (absent in answers stored before issue 30)") String paidFrom) {
    }

    /**
     * The 409 body of a charge: the error envelope, whose {@code budget_exceeded} error also carries {@code remaining}
     * (the other 409 codes, {@code charge_over_limit}, {@code mandate_not_active}, {@code no_budget},
     * {@code idempotency_key_reused}, do not).
     */
    @Schema(name = "BudgetExceededError")
    public record BudgetExceededError(@Schema(required = true) boolean success, @Schema(required = true) Detail error) {

        public record Detail(@Schema(required = true, examples = "budget_exceeded") String code,
                @Schema(required = true) String message,
                @Schema(description = "with `budget_exceeded` only: USDC remaining in the current period", examples = "0.05") String remaining) {
        }
    }

    /** A charge amount: a JSON number or decimal string, exact, more than 0, at most 6 decimals, at most 10^12. */
    @Constraint(validatedBy = ChargeAmount.Check.class)
    @Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.RECORD_COMPONENT})
    @Retention(RetentionPolicy.RUNTIME)
    public @interface ChargeAmount {
        String message() default "must be a USDC amount greater than 0 with at most 6 decimals (a number or a decimal string)";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        class Check extends PresentValueValidator<ChargeAmount, JsonNode> {
            @Override
            protected boolean isValidPresent(JsonNode v, ConstraintValidatorContext c) {
                // an explicit JSON null arrives as a NullNode, which @NotNull lets through: not an amount
                BigDecimal d = decimalOrNull(v);
                return d != null && d.signum() > 0 && d.compareTo(BigDecimal.valueOf(1_000_000_000_000L)) < 0
                        && d.stripTrailingZeros().scale() <= Usdc.DECIMALS;
            }

            static BigDecimal decimal(JsonNode v) {
                return decimalOrNull(v).stripTrailingZeros();
            }

            private static BigDecimal decimalOrNull(JsonNode v) {
                if (v.isNumber()) {
                    return v.decimalValue();
                }
                if (v.isTextual() && v.textValue().matches(Usdc.PATTERN)) {
                    return new BigDecimal(v.textValue());
                }
                return null;
            }
        }
    }
}
