package dev.agentpay.commons.logging;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The platform's one rule for text that reaches a log line: secrets the platform issues are masked
 * and characters that could forge or hide a line are escaped.
 *
 * <ul>
 * <li>Masked: partner API keys ({@code sk_...}), the admin key ({@code adm_...}) and webhook signing
 * secrets ({@code whsec_...}); each keeps its prefix and its first 4 characters, enough to tell keys
 * apart in an incident, never enough to use one.</li>
 * <li>Escaped: CR and LF (a caller's value could otherwise start a forged line), every other C0
 * control, DEL and C1 control, and the Unicode bidi overrides, isolates and zero-width characters
 * that make a line read differently from its bytes; each as {@code \r}, {@code \n}, {@code \t} or
 * {@code \}{@code uXXXX}. A backslash is kept as is (escaping it too would double every Windows path).</li>
 * </ul>
 *
 * {@link #value} is for one value from outside (an argument, a header, an id); it is also bounded in
 * length. {@link LogSafeFilter} applies {@link #text} to every record of every service, so a value a
 * call site forgot is still made safe.
 */
public final class LogSafe {

    /** Longest value {@link #value} keeps; the rest is summarised by its length. */
    public static final int MAX_VALUE_LENGTH = 200;

    private static final Pattern SECRET = Pattern.compile("\\b(sk_|adm_|whsec_)([A-Za-z0-9+/=_-]{4})[A-Za-z0-9+/=_-]*");

    private LogSafe() {
    }

    /** One value from outside, masked, escaped and cut to {@value #MAX_VALUE_LENGTH} characters. */
    public static String value(Object v) {
        if (v == null) {
            return "null";
        }
        String s = String.valueOf(v);
        if (s.length() > MAX_VALUE_LENGTH) {
            s = s.substring(0, MAX_VALUE_LENGTH) + "...(" + s.length() + " chars)";
        }
        return text(s);
    }

    /** Any text bound for a log: secrets masked, line breaks and invisible controls escaped. */
    public static String text(String s) {
        if (s == null) {
            return null;
        }
        return escape(mask(s));
    }

    /** Whether {@link #text} would change {@code s}. */
    public static boolean needsWork(String s) {
        if (s == null) {
            return false;
        }
        for (int i = 0, n = s.length(); i < n; i++) {
            if (escaped(s.charAt(i))) {
                return true;
            }
        }
        return s.contains("sk_") || s.contains("adm_") || s.contains("whsec_")
                ? SECRET.matcher(s).find() : false;
    }

    static String mask(String s) {
        if (!(s.contains("sk_") || s.contains("adm_") || s.contains("whsec_"))) {
            return s;
        }
        Matcher m = SECRET.matcher(s);
        StringBuilder out = new StringBuilder(s.length());
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + m.group(2) + "***"));
        }
        m.appendTail(out);
        return out.toString();
    }

    static String escape(String s) {
        StringBuilder out = null;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (!escaped(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            switch (c) {
                case '\r' -> out.append("\\r");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default -> out.append(String.format("\\u%04x", (int) c));
            }
        }
        return out == null ? s : out.toString();
    }

    /** C0 (tab too), DEL, C1, line/paragraph separators, bidi controls and zero-width characters. */
    static boolean escaped(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f)
                || c == '\u061c' || c == '\u180e'
                || (c >= '\u200b' && c <= '\u200f')
                || (c >= '\u2028' && c <= '\u202e')
                || (c >= '\u2060' && c <= '\u2069')
                || c == '\ufeff';
    }
}
