package io.lineup.dispatch;

import io.lineup.api.TraceContext;
import io.lineup.consumer.observation.LineupKeyNames;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.core.model.LeasedJob;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.util.Locale;
import java.util.Map;

/**
 * The trace context one attempt of a task sends to its endpoint, in {@code traceparent} and {@code
 * tracestate}. With an Observation registry the attempt is a client span ({@value #NAME}), a child
 * of the span the worker runs the task in, and the tracing handler writes that span's context into
 * the headers; without one the task's stored context goes as it is. Either replaces a task header
 * of the same name: the trace is Lineup's to carry.
 */
final class AttemptTrace {
  /** The observation of one attempt. */
  static final String NAME = "lineup.dispatch.attempt";

  private static final AttemptTrace NONE = new AttemptTrace(null, null);

  private final Observation observation;
  private final SenderContext<Map<String, String>> context;

  private AttemptTrace(Observation observation, SenderContext<Map<String, String>> context) {
    this.observation = observation;
    this.context = context;
  }

  /**
   * Sets the attempt's trace headers and starts its observation.
   *
   * @param headers the request's headers, changed in place
   */
  static AttemptTrace start(
      ObservationSettings settings, EndpointKey key, LeasedJob job, Map<String, String> headers) {
    TraceContext stored = job.trace();
    if (stored != null || settings.enabled()) {
      headers.keySet().removeIf(AttemptTrace::isTraceHeader);
    }
    if (stored != null) {
      headers.put(TraceContext.TRACEPARENT, stored.traceparent());
      if (stored.tracestate() != null) {
        headers.put(TraceContext.TRACESTATE, stored.tracestate());
      }
    }
    if (!settings.enabled()) {
      return NONE;
    }
    SenderContext<Map<String, String>> context =
        new SenderContext<>((carrier, name, value) -> carrier.put(name, value), Kind.CLIENT);
    context.setCarrier(headers);
    Observation observation =
        Observation.createNotStarted(NAME, () -> context, settings.registry())
            .contextualName("dispatch " + key.queue())
            .lowCardinalityKeyValue(LineupKeyNames.MESSAGING_SYSTEM, LineupKeyNames.SYSTEM_LINEUP)
            .lowCardinalityKeyValue(LineupKeyNames.DESTINATION_NAME, key.queue().toString())
            .highCardinalityKeyValue(LineupKeyNames.MESSAGE_ID, job.id())
            .highCardinalityKeyValue(
                LineupKeyNames.DELIVERY_ATTEMPT, Integer.toString(job.attempt()))
            .start();
    // A header the propagator wrote must be one the egress may send, as every header Lineup adds.
    try {
      for (Map.Entry<String, String> h : headers.entrySet()) {
        if (isTraceHeader(h.getKey())) {
          OutgoingRequestCheck.checkAdded(h.getKey(), h.getValue());
        }
      }
    } catch (OutgoingRequestCheck.Refused refused) {
      observation.error(refused);
      observation.stop();
      throw refused;
    }
    return new AttemptTrace(observation, context);
  }

  /** The endpoint answered with this HTTP status. */
  void answered(int status) {
    if (observation != null) {
      context.addHighCardinalityKeyValue(
          KeyValue.of("http.response.status_code", Integer.toString(status)));
    }
  }

  /** The request was not answered (refused by the egress policy, a connection error, a timeout). */
  void failed(Throwable error) {
    if (observation != null) {
      observation.error(error);
    }
  }

  /** Ends the attempt's observation. */
  void stop() {
    if (observation != null) {
      observation.stop();
    }
  }

  private static boolean isTraceHeader(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.equals(TraceContext.TRACEPARENT) || lower.equals(TraceContext.TRACESTATE);
  }
}
