package dev.agentpay.mandate.signing;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * JavaScript {@code Date} semantics for {@code expires_at}: {@link #toIsoString} is exactly
 * {@code Date.prototype.toISOString()}, and {@link #parse} reads the strings for which
 * {@code new Date(s)} is fully specified by ECMA-262 (the Date Time String Format), so that
 * {@code toIsoString(parse(s))} equals {@code new Date(s).toISOString()} in every engine.
 *
 * <p>{@link #parse} is deliberately stricter than V8: a date-time without {@code Z} or an offset is
 * refused (JavaScript reads it in the host's local time zone), as are impossible calendar dates such
 * as February 30 and hour 24 (V8 rolls them over silently), lower-case {@code t}/{@code z}, a space
 * instead of {@code T}, and the implementation-defined legacy formats. Refusing is safe: a partner
 * never signs over a value the service would read differently.
 */
public final class JsDate {

    /** ECMAScript time values are limited to ±8.64e15 ms around the epoch (TimeClip). */
    public static final long MAX_EPOCH_MILLIS = 8_640_000_000_000_000L;

    private static final Pattern ISO = Pattern.compile(
            "([0-9]{4}|[+-][0-9]{6})-([0-9]{2})-([0-9]{2})"
                    + "(?:T([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]+))?)?(?:(Z)|([+-])([0-9]{2}):([0-9]{2})))?");

    private JsDate() {
    }

    /** {@code new Date(instant).toISOString()}: UTC, milliseconds truncated, expanded years outside 0..9999. */
    public static String toIsoString(Instant instant) {
        long ms;
        try {
            ms = instant.toEpochMilli();
        } catch (ArithmeticException e) {
            throw outOfRange();
        }
        if (Math.abs(ms) > MAX_EPOCH_MILLIS) {
            throw outOfRange();
        }
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(ms, 1000L),
                (int) Math.floorMod(ms, 1000L) * 1_000_000, ZoneOffset.UTC);
        int year = t.getYear();
        StringBuilder out = new StringBuilder(27);
        if (year >= 0 && year <= 9999) {
            pad(out, year, 4);
        } else {
            out.append(year < 0 ? '-' : '+');
            pad(out, Math.abs(year), 6);
        }
        out.append('-');
        pad(out, t.getMonthValue(), 2);
        out.append('-');
        pad(out, t.getDayOfMonth(), 2);
        out.append('T');
        pad(out, t.getHour(), 2);
        out.append(':');
        pad(out, t.getMinute(), 2);
        out.append(':');
        pad(out, t.getSecond(), 2);
        out.append('.');
        pad(out, t.getNano() / 1_000_000, 3);
        return out.append('Z').toString();
    }

    /**
     * Reads an ISO 8601 timestamp the way {@code new Date(s)} does: {@code YYYY-MM-DD} (UTC midnight) or
     * {@code YYYY-MM-DDTHH:mm[:ss[.fraction]]} followed by {@code Z} or {@code ±HH:mm}; years may be
     * written {@code ±YYYYYY}; fraction digits beyond milliseconds are truncated.
     *
     * @throws IllegalArgumentException if the text is not such a timestamp or lies outside the JavaScript date range
     */
    public static Instant parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("timestamp is required");
        }
        Matcher m = ISO.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "timestamp must be ISO 8601 like 2030-01-31T12:00:00.000Z or with an offset like +02:00");
        }
        String yearText = m.group(1);
        if (yearText.equals("-000000")) {
            throw new IllegalArgumentException("timestamp year -000000 is not allowed");
        }
        boolean dateOnly = m.group(4) == null;
        if (!dateOnly && m.group(8) == null && m.group(9) == null) {
            throw new IllegalArgumentException("timestamp must end with Z or an offset such as +02:00");
        }
        int year = Integer.parseInt(yearText.startsWith("+") ? yearText.substring(1) : yearText);
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        int hour = dateOnly ? 0 : Integer.parseInt(m.group(4));
        int minute = dateOnly ? 0 : Integer.parseInt(m.group(5));
        int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
        String fraction = m.group(7);
        int millis = fraction == null ? 0 : Integer.parseInt((fraction + "00").substring(0, 3));
        int offsetMinutes = 0;
        if (m.group(9) != null) {
            int oh = Integer.parseInt(m.group(10));
            int om = Integer.parseInt(m.group(11));
            if (oh > 23 || om > 59) {
                throw new IllegalArgumentException("timestamp offset must be between -23:59 and +23:59");
            }
            offsetMinutes = (m.group(9).equals("-") ? -1 : 1) * (oh * 60 + om);
        }
        if (hour > 23 || minute > 59 || second > 59) {
            throw new IllegalArgumentException("timestamp time of day is out of range");
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("timestamp is not a calendar date: " + e.getMessage());
        }
        long ms = ((epochDay * 24 + hour) * 60 + minute - offsetMinutes) * 60_000L + second * 1000L + millis;
        if (Math.abs(ms) > MAX_EPOCH_MILLIS) {
            throw outOfRange();
        }
        return Instant.ofEpochMilli(ms);
    }

    private static IllegalArgumentException outOfRange() {
        return new IllegalArgumentException("timestamp is outside the JavaScript date range (±8.64e15 ms)");
    }

    private static void pad(StringBuilder out, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            out.append('0');
        }
        out.append(s);
    }
}
