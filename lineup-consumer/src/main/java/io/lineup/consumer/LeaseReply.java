package io.lineup.consumer;

import java.time.Duration;
import java.util.List;

/**
 * The answer to one lease call.
 *
 * @param jobs the jobs leased, in the order they were leased (empty when none was ready)
 * @param retryAfter when no job came, how long the source advises to wait before the next call (a
 *     queue limit's refusal, or a delayed job falling due); null when it has no advice, which means
 *     nothing can be leased now
 * @param <J> the source's leased job
 */
public record LeaseReply<J>(List<J> jobs, Duration retryAfter) {
  /** Copies the jobs. */
  public LeaseReply {
    jobs = List.copyOf(jobs);
  }

  /** Jobs with no advice to wait. */
  public static <J> LeaseReply<J> of(List<J> jobs) {
    return new LeaseReply<>(jobs, null);
  }
}
