package dev.agentpay.invoice.domain;

import java.util.List;

/** One page of a list; {@code nextCursor} is absent on the last page. */
public record Page<T>(List<T> items, String nextCursor) {
}
