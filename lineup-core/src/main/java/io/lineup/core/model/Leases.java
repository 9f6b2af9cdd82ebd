package io.lineup.core.model;

import java.time.Duration;
import java.util.List;

/**
 * The answer to a lease call: the jobs leased, and when none were, why and how long to wait.
 *
 * @param jobs leased jobs, in line order (empty when none came in time)
 * @param refusal why a queue refused, when it did (null when nothing refused)
 * @param retryAfter how long until a lease can succeed, when known (zero when jobs came, or
 *     unknown)
 */
public record Leases(List<LeasedJob> jobs, Refusal refusal, Duration retryAfter) {
  /** Why a queue gave no jobs although it may have had some. */
  public enum Refusal {
    PAUSED,
    RATE_LIMITED,
    CONCURRENCY_LIMITED
  }

  public boolean isEmpty() {
    return jobs.isEmpty();
  }
}
