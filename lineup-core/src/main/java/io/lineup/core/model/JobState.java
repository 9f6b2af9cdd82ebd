package io.lineup.core.model;

/** Where a job is in its life (see the README's job life diagram). */
public enum JobState {
  /** Waiting for its due time (a delay, a run-at time or a retry backoff). */
  DELAYED,
  /** In the ready line; it has a position. */
  READY,
  /** Held by a consumer until its lease deadline. */
  LEASED,
  /** Acknowledged; the record and result are kept for the retention window. */
  DONE,
  /** Out of attempts; kept in dead letters until respawned or purged. */
  DEAD,
  /** Cancelled; a tombstone is kept for the retention window. */
  CANCELLED,
  /** Its TTL passed before it finished; a tombstone is kept for the retention window. */
  EXPIRED
}
