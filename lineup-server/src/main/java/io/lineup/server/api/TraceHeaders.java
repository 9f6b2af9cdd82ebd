package io.lineup.server.api;

import io.lineup.api.TraceContext;
import java.util.function.UnaryOperator;

/**
 * The W3C trace context of a request's {@code traceparent} and {@code tracestate} headers, which a
 * publish or a task submit stores with what it queues. An absent or invalid traceparent gives none
 * and an invalid tracestate is dropped, never a 400: the W3C says a receiver restarts the trace
 * then (docs/tracing.md).
 */
final class TraceHeaders {
  private TraceHeaders() {}

  /**
   * The context of the headers.
   *
   * @param header a request header's value by name, or null when absent
   * @return the context, or null for none
   */
  static TraceContext of(UnaryOperator<String> header) {
    return TraceContext.lenient(
            header.apply(TraceContext.TRACEPARENT), header.apply(TraceContext.TRACESTATE))
        .orElse(null);
  }
}
