package io.lineup.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * One entry of a schedule's history: what happened at one tick. The job's own state can be looked
 * up with {@link #jobId()} (while the queue keeps its record).
 *
 * @param tick the tick's time (before jitter), millisecond precision
 * @param jobId the id of the tick's job; for {@link Outcome#SKIPPED_MISSED} the id the tick's job
 *     would have had
 * @param publishedAt when the engine decided the tick, on the engine's clock (the Redis server's by
 *     default)
 * @param outcome what was done
 */
public record ScheduleRun(Instant tick, String jobId, Instant publishedAt, Outcome outcome) {
  /** What a tick led to. */
  public enum Outcome {
    /** A new job was published. */
    PUBLISHED,
    /** A missed tick that its schedule's {@link MissedTicks} policy left without a job. */
    SKIPPED_MISSED,
    /** The tick's job id was already known (published before): nothing new was written. */
    DUPLICATE
  }

  public ScheduleRun {
    Objects.requireNonNull(tick, "tick");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(publishedAt, "publishedAt");
    Objects.requireNonNull(outcome, "outcome");
  }
}
