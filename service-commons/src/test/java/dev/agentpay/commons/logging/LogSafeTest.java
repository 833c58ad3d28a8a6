package dev.agentpay.commons.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

/** The one rule for text bound for a log, and the filter that applies it to every record. */
class LogSafeTest {

    static final String KEY = "sk_" + "0123456789abcdef".repeat(4);

    @Test
    void masksEveryKindOfPlatformSecretKeepingAPrefix() {
        assertThat(LogSafe.text("key=" + KEY + " next")).isEqualTo("key=sk_0123*** next").doesNotContain(KEY);
        assertThat(LogSafe.text("adm_" + "ab".repeat(32))).isEqualTo("adm_abab***");
        assertThat(LogSafe.text("whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0")).isEqualTo("whsec_c2Vj***");
        // a key glued to other text (a header value in an exception message) is still found
        assertThat(LogSafe.text("value:" + KEY + "\n")).isEqualTo("value:sk_0123***\\n");
        assertThat(LogSafe.text("ask_nothing task_id")).isEqualTo("ask_nothing task_id");
    }

    @Test
    void escapesLineBreaksControlsAndInvisibleCharacters() {
        String forged = "x\n16:40:00.000 INFO  traceId= spanId= [i.q.Application] (main) all good";
        assertThat(LogSafe.text(forged)).doesNotContain("\n").startsWith("x\\n16:40:00.000 INFO");
        assertThat(LogSafe.text("a\rb\tc\u0000d\u0007e\u007ff\u0085g")).isEqualTo("a\\rb\\tc\\u0000d\\u0007e\\u007ff\\u0085g");
        assertThat(LogSafe.text("pay\u202eeulav\u200b\u2028\u2066x")).isEqualTo("pay\\u202eeulav\\u200b\\u2028\\u2066x");
        assertThat(LogSafe.text("plain C:\\path ünïcödé ✓")).isEqualTo("plain C:\\path ünïcödé ✓");
    }

    @Test
    void valueIsBounded() {
        String v = LogSafe.value("a".repeat(1000));
        assertThat(v).startsWith("a".repeat(LogSafe.MAX_VALUE_LENGTH)).endsWith("...(1000 chars)");
        assertThat(LogSafe.value(null)).isEqualTo("null");
    }

    @Test
    void theFilterRewritesTheMessageAndEveryExceptionMessageInTheChain() {
        ExtLogRecord r = new ExtLogRecord(Level.SEVERE, "tool %s failed with %s", ExtLogRecord.FormatStyle.PRINTF, "test");
        r.setParameters(new Object[] {"x\nFORGED", KEY});
        IllegalStateException cause = new IllegalStateException("a header value must not end with '\\n':" + KEY + "\n");
        RuntimeException top = new RuntimeException("wrapped", cause);
        r.setThrown(top);

        assertThat(new LogSafeFilter().isLoggable(r)).isTrue();

        assertThat(r.getFormattedMessage()).isEqualTo("tool x\\nFORGED failed with sk_0123***");
        Throwable t = r.getThrown();
        assertThat(t.toString()).isEqualTo("java.lang.RuntimeException: wrapped");
        assertThat(t.getStackTrace()).isEqualTo(top.getStackTrace());
        assertThat(t.getCause().toString()).startsWith("java.lang.IllegalStateException: a header value")
                .doesNotContain(KEY).doesNotContain("\n").endsWith("sk_0123***\\n");
    }

    @Test
    void theFilterLeavesCleanRecordsAlone() {
        ExtLogRecord r = new ExtLogRecord(Level.INFO, "started in %ss", ExtLogRecord.FormatStyle.PRINTF, "test");
        r.setParameters(new Object[] {"1.5"});
        RuntimeException e = new RuntimeException("plain");
        r.setThrown(e);
        assertThat(new LogSafeFilter().isLoggable(r)).isTrue();
        assertThat(r.getFormattedMessage()).isEqualTo("started in 1.5s");
        assertThat(r.getThrown()).isSameAs(e);
    }
}
