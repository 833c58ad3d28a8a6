package dev.agentpay.commons.logging;

import io.quarkus.logging.LoggingFilter;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;

/**
 * Applies {@link LogSafe#text} to every log record of a service (linked to the console handler in
 * service-commons' configuration, {@code quarkus.log.console.filter}): the formatted message, and the
 * message of every exception in the record's cause chain (a framework's exception message may quote a
 * header value, as Vert.x's "a header value must not end with '\n'" does). A record is never dropped.
 */
@LoggingFilter(name = LogSafeFilter.NAME)
public final class LogSafeFilter implements Filter {

    public static final String NAME = "agentpay-log-safe";

    @Override
    public boolean isLoggable(LogRecord record) {
        try {
            String formatted = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
            if (LogSafe.needsWork(formatted)) {
                if (record instanceof ExtLogRecord ext) {
                    ext.setMessage(LogSafe.text(formatted), ExtLogRecord.FormatStyle.NO_FORMAT);
                } else {
                    record.setMessage(LogSafe.text(formatted));
                }
                record.setParameters(null);
            }
            if (record.getThrown() != null && unsafe(record.getThrown(), 0)) {
                record.setThrown(SafeThrowable.of(record.getThrown(), 0));
            }
        } catch (RuntimeException e) {
            // never lose a record to the filter itself
        }
        return true;
    }

    private static boolean unsafe(Throwable t, int depth) {
        if (t == null || depth > 20) {
            return false;
        }
        if (LogSafe.needsWork(t.getMessage())) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (unsafe(s, depth + 1)) {
                return true;
            }
        }
        return unsafe(t.getCause(), depth + 1);
    }

    /** Stands in for an exception whose message needs work: same class name, frames and causes. */
    static final class SafeThrowable extends RuntimeException {

        private final String shown;

        private SafeThrowable(Throwable original, Throwable cause) {
            super(LogSafe.text(original.getMessage()), cause, true, true);
            String m = getMessage();
            this.shown = m == null ? original.getClass().getName() : original.getClass().getName() + ": " + m;
            setStackTrace(original.getStackTrace());
        }

        static Throwable of(Throwable t, int depth) {
            if (t == null || depth > 20) {
                return null;
            }
            SafeThrowable s = new SafeThrowable(t, of(t.getCause(), depth + 1));
            for (Throwable sup : t.getSuppressed()) {
                s.addSuppressed(of(sup, depth + 1));
            }
            return s;
        }

        @Override
        public String toString() {
            return shown;
        }
    }
}
