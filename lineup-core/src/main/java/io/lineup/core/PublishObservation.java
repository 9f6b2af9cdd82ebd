package io.lineup.core;

import io.lineup.api.TraceContext;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.PublishContext;
import io.lineup.consumer.observation.TraceCarrier;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.micrometer.observation.Observation;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The {@code lineup.publish} observation of one publish call: started before the jobs are checked,
 * so that a tracing handler writes its span's trace context into them (each job without one of its
 * own), and stopped when the call's answer comes.
 */
final class PublishObservation {
  private PublishObservation() {}

  /**
   * Runs {@code publish} inside a publish observation of these jobs.
   *
   * @return the publish's answer, which stops the observation when it completes
   */
  static CompletableFuture<List<PublishResult>> around(
      ObservationSettings settings,
      QueueName queue,
      List<NewJob> jobs,
      Supplier<CompletableFuture<List<PublishResult>>> publish) {
    int count = jobs == null ? 0 : jobs.size();
    PublishContext context =
        new PublishContext(carrier(jobs), queue.namespace(), queue.name(), count);
    Observation observation = settings.publish(context).start();
    CompletableFuture<List<PublishResult>> answer;
    try (Observation.Scope scope = observation.openScope()) {
      answer = publish.get();
    } catch (RuntimeException e) {
      observation.error(e);
      observation.stop();
      throw e;
    }
    return answer.whenComplete((results, error) -> {
      if (error != null) {
        observation.error(
            error instanceof CompletionException && error.getCause() != null
                ? error.getCause()
                : error);
      } else if (results.size() == 1) {
        context.jobId(results.get(0).id());
      }
      observation.stop();
    });
  }

  /**
   * Writes the propagated fields into the jobs that carry no traceparent of their own (a caller's
   * context, from a publish request's headers, is kept as given).
   */
  private static TraceCarrier carrier(List<NewJob> jobs) {
    if (jobs == null) {
      return (key, value) -> {};
    }
    boolean[] own = new boolean[jobs.size()];
    for (int i = 0; i < own.length; i++) {
      own[i] = jobs.get(i) != null && jobs.get(i).traceparent() != null;
    }
    return (key, value) -> {
      for (int i = 0; i < own.length; i++) {
        NewJob job = jobs.get(i);
        if (own[i] || job == null) {
          continue;
        }
        if (TraceContext.TRACEPARENT.equals(key)) {
          job.traceparent(value);
        } else if (TraceContext.TRACESTATE.equals(key)) {
          job.tracestate(value);
        }
      }
    };
  }
}
