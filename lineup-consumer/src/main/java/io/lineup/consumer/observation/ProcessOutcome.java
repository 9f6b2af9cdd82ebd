package io.lineup.consumer.observation;

import java.util.Locale;

/** How a job handled by a worker ended, as its {@code lineup.process} observation tags it. */
public enum ProcessOutcome {
  /** The handler returned: the job is acked. */
  ACKED,
  /** The handler asked to retry later ({@code RetryLaterException}): the job is nacked. */
  NACKED,
  /** The handler threw: the job is nacked with the error, or goes to dead letters. */
  FAILED,
  /** The lease was lost, or the worker closed before the handler ended: the job was not settled. */
  ABANDONED;

  /** The tag's value: the name in lower case. */
  public String tag() {
    return name().toLowerCase(Locale.ROOT);
  }
}
