package io.lineup.consumer.observation;

/**
 * Where a publish observation's tracing handler writes the trace context it propagates: the jobs
 * being published, whose {@code traceparent} and {@code tracestate} it sets.
 */
@FunctionalInterface
public interface TraceCarrier {
  /**
   * Sets one propagation field.
   *
   * @param key the field's name, {@code traceparent} or {@code tracestate} for W3C propagation
   * @param value its value
   */
  void put(String key, String value);
}
