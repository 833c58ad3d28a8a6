package dev.agentpay.commons.error;

/** The error envelope every service answers with: {@code {success:false, error:{code, message}}}. */
public record ErrorBody(boolean success, Detail error) {

    public record Detail(String code, String message) {
    }

    public static ErrorBody of(String code, String message) {
        return new ErrorBody(false, new Detail(code, message));
    }
}
