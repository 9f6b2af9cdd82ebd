package io.lineup.client;

import io.lineup.api.TraceContext;
import io.lineup.api.resource.PublishResult;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.PublishContext;
import io.lineup.consumer.observation.TraceCarrier;
import io.micrometer.observation.Observation;
import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code lineup.publish} observation of one publish request: started before the request is
 * made, so that a tracing handler writes its span's trace context into the jobs (each without one
 * of its own), which the request then carries in its {@code traceparent} header.
 */
final class ClientPublishObservation {
  private ClientPublishObservation() {}

  /** Runs {@code publish} inside a publish observation of these jobs, when one is wanted. */
  static List<PublishResult> around(
      ObservationSettings settings,
      QueueName queue,
      List<NewJob> jobs,
      Supplier<List<PublishResult>> publish) {
    if (!settings.enabled()) {
      return publish.get();
    }
    PublishContext context =
        new PublishContext(carrier(jobs), queue.namespace(), queue.name(), jobs.size());
    Observation observation = settings.publish(context).start();
    try (Observation.Scope scope = observation.openScope()) {
      List<PublishResult> results = publish.get();
      if (results.size() == 1) {
        context.jobId(results.get(0).id());
      }
      return results;
    } catch (RuntimeException e) {
      observation.error(e);
      throw e;
    } finally {
      observation.stop();
    }
  }

  /** Writes the propagated fields into the jobs that carry no traceparent of their own. */
  private static TraceCarrier carrier(List<NewJob> jobs) {
    boolean[] own = new boolean[jobs.size()];
    for (int i = 0; i < own.length; i++) {
      own[i] = jobs.get(i).traceparent() != null;
    }
    return (key, value) -> {
      for (int i = 0; i < own.length; i++) {
        if (own[i]) {
          continue;
        }
        if (TraceContext.TRACEPARENT.equals(key)) {
          jobs.get(i).traceparent(value);
        } else if (TraceContext.TRACESTATE.equals(key)) {
          jobs.get(i).tracestate(value);
        }
      }
    };
  }
}
