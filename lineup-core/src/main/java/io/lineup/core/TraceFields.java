package io.lineup.core;

import io.lineup.api.TraceContext;
import java.util.Map;

/** A job's stored trace context as the propagation fields a tracing handler reads. */
final class TraceFields {
  private TraceFields() {}

  /** {@code traceparent} and {@code tracestate} as stored; empty for a job without a context. */
  static Map<String, String> of(TraceContext trace) {
    if (trace == null) {
      return Map.of();
    }
    if (trace.tracestate() == null) {
      return Map.of(TraceContext.TRACEPARENT, trace.traceparent());
    }
    return Map.of(
        TraceContext.TRACEPARENT, trace.traceparent(), TraceContext.TRACESTATE, trace.tracestate());
  }
}
