package io.lineup.core.internal.store;

import io.lineup.api.TraceContext;

/**
 * The fields of a job's stored body that the engine reads outside Redis: a whole record as {@code
 * lib/job.lua} stores it (a msgpack array of the job's values, trailing absent values left out),
 * which the lease script gives for each leased job and the archive outbox for each ended one.
 *
 * @param payloadOrNull the payload, null when empty
 * @param createdMs when the job was published (epoch ms)
 * @param priority the job's priority (0 when absent)
 * @param maxAttempts the job's own max attempts, 0 when it names none (the queue's then apply)
 * @param dueMs when the job was due (epoch ms), 0 when it was due at once
 * @param trace the trace context stored with it, or null
 */
record StoredBody(
    byte[] payloadOrNull,
    long createdMs,
    int priority,
    int maxAttempts,
    long dueMs,
    TraceContext trace) {
  // Positions in a stored record (lib/job.lua), counted from 1 as there.
  private static final int F_PAYLOAD = 1;
  private static final int F_CREATED = 2;
  private static final int F_PRIORITY = 3;
  private static final int F_MAX_ATTEMPTS = 6;
  private static final int F_DUE = 8;
  private static final int F_TRACE = 19;

  /** A body with no values: what an outbox entry of a job without a stored body reads as. */
  static final StoredBody NONE = new StoredBody(null, 0, 0, 0, 0, null);

  /**
   * Reads a stored body.
   *
   * @throws IllegalArgumentException when the bytes are no msgpack array of a record's values
   */
  static StoredBody of(byte[] record) {
    MsgpackReader fields = new MsgpackReader(record, 0, record.length);
    int n = fields.readArrayHeader();
    byte[] payload = null;
    long created = 0;
    long priority = 0;
    long maxAttempts = 0;
    long due = 0;
    String trace = null;
    for (int f = 1; f <= n && f <= F_TRACE; f++) {
      switch (f) {
        case F_PAYLOAD -> payload = fields.readBytesOrNull();
        case F_CREATED -> created = fields.readLong();
        case F_PRIORITY -> priority = fields.readLong();
        case F_MAX_ATTEMPTS -> maxAttempts = fields.readLong();
        case F_DUE -> due = fields.readLong();
        case F_TRACE -> trace = fields.readTextOrNull();
        default -> fields.skip();
      }
    }
    return new StoredBody(
        payload, created, (int) priority, (int) maxAttempts, due, TraceContext.ofStored(trace));
  }

  /** The payload, empty when there is none. */
  byte[] payload() {
    return payloadOrNull == null ? new byte[0] : payloadOrNull;
  }
}
