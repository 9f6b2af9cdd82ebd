package io.lineup.consumer;

import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.ProcessContext;
import io.lineup.consumer.observation.ProcessOutcome;
import io.micrometer.observation.Observation;
import java.lang.System.Logger.Level;

/**
 * The {@code lineup.process} observation of one job, opened in the job's thread around its handler,
 * so that what the handler does (its logs, its own calls) is in the job's span.
 */
final class JobObservation {
  private final Observation observation;
  private final Observation.Scope scope;
  private final ProcessContext context;

  private JobObservation(Observation observation, ProcessContext context) {
    this.observation = observation;
    this.context = context;
    this.scope = observation.openScope();
  }

  /**
   * Starts the job's observation and opens its scope in this thread.
   *
   * @return the observation, or null when nothing is observed (no registry, or a source that gives
   *     no context): the loop's cost then is this check
   */
  static <J> JobObservation start(
      ObservationSettings settings, LeaseSource<J> source, J job, ConsumerLog log) {
    if (!settings.enabled()) {
      return null;
    }
    try {
      ProcessContext context = source.processContext(job);
      if (context == null) {
        return null;
      }
      return new JobObservation(settings.process(context).start(), context);
    } catch (RuntimeException e) {
      // A failing handler of the registry must not keep the job from running.
      log.log(Level.WARNING, () -> "Could not observe a job: " + e);
      return null;
    }
  }

  /** The handler returned: acked, unless the job was taken from it. */
  void returned(boolean abandoned) {
    context.outcome(abandoned ? ProcessOutcome.ABANDONED : ProcessOutcome.ACKED);
  }

  /** The handler threw: nacked when it asked for a retry, else failed, unless abandoned. */
  void threw(Throwable error, boolean abandoned) {
    if (abandoned) {
      context.outcome(ProcessOutcome.ABANDONED);
    } else if (error instanceof RetryLaterException) {
      context.outcome(ProcessOutcome.NACKED);
    } else {
      context.outcome(ProcessOutcome.FAILED);
      observation.error(error);
    }
  }

  /** Closes the scope and stops the observation (in the thread that started it); never throws. */
  void stop(ConsumerLog log) {
    try {
      scope.close();
      observation.stop();
    } catch (RuntimeException e) {
      log.log(Level.WARNING, () -> "Could not end a job's observation: " + e);
    }
  }
}
