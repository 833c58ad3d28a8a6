package dev.agentpay.discovery.benchmark.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.discovery.benchmark.domain.BenchmarkPublication;
import dev.agentpay.discovery.benchmark.domain.BenchmarkPublication.TaskClass;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The consistency rules of a published ATRR benchmark, which its JSON Schema states in words and cannot
 * express (the field rules are Bean Validation constraints on {@link BenchmarkPublication}). The spec only
 * says "a JSON document"; an operator publishing a figure agents will trust must be able to show where it
 * came from, so the counts must add up and the raw logs travel with the document.
 */
public final class BenchmarkValidator {

    private static final BigDecimal SCORE_TOLERANCE = new BigDecimal("0.005");

    private BenchmarkValidator() {
    }

    public static void checkConsistency(BenchmarkPublication doc) {
        BigDecimal total = doc.tasksTotal();
        BigDecimal completed = doc.tasksCompleted();
        if (completed.compareTo(total) > 0) {
            throw ApiException.invalidField("tasks_completed", "must be at most tasks_total");
        }
        if (doc.score().subtract(completed.divide(total, MathContext.DECIMAL64)).abs().compareTo(SCORE_TOLERANCE) > 0) {
            throw ApiException.invalidField("score", "must equal tasks_completed / tasks_total");
        }
        BigDecimal attemptedSum = BigDecimal.ZERO;
        BigDecimal completedSum = BigDecimal.ZERO;
        for (int i = 0; i < doc.taskClasses().size(); i++) {
            TaskClass c = doc.taskClasses().get(i);
            if (c.completed().compareTo(c.attempted()) > 0) {
                throw ApiException.invalidField("task_classes[" + i + "].completed", "must be at most attempted");
            }
            attemptedSum = attemptedSum.add(c.attempted());
            completedSum = completedSum.add(c.completed());
        }
        if (attemptedSum.compareTo(total) != 0 || completedSum.compareTo(completed) != 0) {
            throw ApiException.invalidField("task_classes", "attempted and completed must add up to tasks_total and tasks_completed");
        }
        try {
            Instant.parse(doc.runAt());
        } catch (DateTimeParseException e) {
            throw ApiException.invalidField("run_at", "must be an ISO 8601 instant");
        }
    }
}
