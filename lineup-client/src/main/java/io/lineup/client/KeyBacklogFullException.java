package io.lineup.client;

/**
 * 429 {@code key_backlog_full}: a publish to a fair queue would bring a fairness key past its most
 * waiting jobs (the key's own max waiting, or the queue's {@code key_max_waiting}). Nothing of the
 * publish was queued. It carries no retry time: the key's backlog drains as its jobs are leased, at
 * a pace only the consumers set.
 */
public class KeyBacklogFullException extends LineupClientException {
  private final String key;
  private final long maxWaiting;
  private final long waiting;

  KeyBacklogFullException(
      String field, String message, String requestId, String key, long maxWaiting, long waiting) {
    super(429, "key_backlog_full", field, message, requestId);
    this.key = key;
    this.maxWaiting = maxWaiting;
    this.waiting = waiting;
  }

  /** The fairness key that is full; null when the answer did not carry it. */
  public String key() {
    return key;
  }

  /** The key's most jobs waiting; -1 when the answer did not carry it. */
  public long maxWaiting() {
    return maxWaiting;
  }

  /** The key's jobs waiting when the publish ran; -1 when the answer did not carry it. */
  public long waiting() {
    return waiting;
  }
}
