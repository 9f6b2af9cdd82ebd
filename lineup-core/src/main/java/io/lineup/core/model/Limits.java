package io.lineup.core.model;

import io.lineup.api.JobIds;

/**
 * The documented bounds of every input; values outside them throw {@link InvalidArgumentException}.
 * The bounds of queue settings are part of their definitions, {@link QueueSetting}.
 */
public final class Limits {
  /** Lowest priority. */
  public static final int MIN_PRIORITY = -255;

  /** Highest priority. */
  public static final int MAX_PRIORITY = 255;

  /** Most attempts a job may be given. */
  public static final int MAX_ATTEMPTS = 1000;

  /** Longest caller-given job id, in characters from {@code A-Z a-z 0-9 _ . : -}. */
  public static final int MAX_ID_LENGTH = JobIds.MAX_LENGTH;

  /** Longest unique key, in UTF-8 bytes. */
  public static final int MAX_UNIQUE_KEY_BYTES = 256;

  /**
   * Default largest payload, in bytes (see {@link io.lineup.core.LineupOptions#maxPayloadBytes()}).
   */
  public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;

  /** Largest result an ack may store, in bytes. */
  public static final int MAX_RESULT_BYTES = 1024 * 1024;

  /** Longest error text kept with a nack, in characters; longer text is cut. */
  public static final int MAX_ERROR_CHARS = 4096;

  /** Longest delay, and latest run-at time from now: ten years, in milliseconds. */
  public static final long MAX_DELAY_MS = 10L * 366 * 24 * 3600 * 1000;

  /** Shortest and longest time-to-run, in milliseconds (100 ms to 24 h). */
  public static final long MIN_TTR_MS = 100;

  public static final long MAX_TTR_MS = 24L * 3600 * 1000;

  /** Longest TTL, in milliseconds (ten years). */
  public static final long MAX_TTL_MS = MAX_DELAY_MS;

  /** Longest unique window, in milliseconds (30 days). */
  public static final long MAX_UNIQUE_WINDOW_MS = 30L * 24 * 3600 * 1000;

  /** Most jobs one lease or one bulk publish may carry. */
  public static final int MAX_BATCH = 1000;

  /** Longest blocking wait of one lease call, in milliseconds (5 minutes). */
  public static final long MAX_WAIT_MS = 5L * 60 * 1000;

  private Limits() {}
}
