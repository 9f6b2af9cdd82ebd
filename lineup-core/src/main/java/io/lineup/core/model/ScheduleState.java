package io.lineup.core.model;

/** Where a schedule stands. */
public enum ScheduleState {
  /** Ticking: {@link Schedule#nextTick()} says when its next job is published. */
  ACTIVE,
  /** Paused by a caller: no job until it is resumed. */
  PAUSED,
  /** Past its end time or its most runs: no more jobs unless it is upserted again. */
  ENDED
}
