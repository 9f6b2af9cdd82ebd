package io.lineup.core.internal.store;

import io.lettuce.core.StreamMessage;
import io.lineup.core.model.JobState;
import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The jobs of archive outbox stream entries, as {@code lib/archive.lua} writes them: one entry per
 * script call, its field {@code j} one msgpack array of the jobs' values, job after job (id, state,
 * attempts, started, finished, last error, result, stored body; entries of earlier versions hold
 * the same values without the array), {@code m} the queue's max attempts for jobs that named none.
 * Entries of the earlier form, one job each with its values in fields, are read too, so an outbox
 * written before an upgrade is archived after it.
 */
final class OutboxEntries {
  private static final byte[] JOBS = utf8("j");
  private static final byte[] MAX_ATTEMPTS = utf8("m");
  private static final byte[] JOB_COUNT = utf8("n");

  private OutboxEntries() {}

  /** Every job the messages hold, in order; each carries its message's id as its entry id. */
  static List<OutboxEntry> of(QueueName queue, List<StreamMessage<byte[], byte[]>> messages) {
    List<OutboxEntry> entries = new ArrayList<>(messages.size() * 16);
    for (StreamMessage<byte[], byte[]> message : messages) {
      Map<byte[], byte[]> body = message.getBody();
      if (body == null || body.isEmpty()) {
        continue; // deleted while pending: nothing left to archive
      }
      byte[] packed = null;
      byte[] max = null;
      byte[] count = null;
      for (Map.Entry<byte[], byte[]> field : body.entrySet()) {
        if (Arrays.equals(field.getKey(), JOBS)) {
          packed = field.getValue();
        } else if (Arrays.equals(field.getKey(), MAX_ATTEMPTS)) {
          max = field.getValue();
        } else if (Arrays.equals(field.getKey(), JOB_COUNT)) {
          count = field.getValue();
        }
      }
      if (packed == null) {
        entries.add(singleJob(queue, message.getId(), body));
      } else {
        int queueMax = max == null ? 0 : Integer.parseInt(text(max));
        int first = entries.size();
        // The entry's count (n) is what the outbox bound counted; an entry without one is counted
        // by its jobs.
        int jobs = count == null ? -1 : Integer.parseInt(text(count));
        unpack(queue, message.getId(), jobs, packed, queueMax, entries);
        if (jobs < 0) {
          recount(entries, first);
        }
      }
    }
    return entries;
  }

  private static void unpack(
      QueueName queue,
      String entryId,
      int entryJobs,
      byte[] packed,
      int queueMax,
      List<OutboxEntry> into) {
    MsgpackReader jobs = new MsgpackReader(packed, 0, packed.length);
    if (jobs.hasNext() && jobs.nextIsArray()) {
      // One array of every job's values; entries of earlier versions hold the values without it
      // (their first value is an id, text, never an array). Either way the values are read in turn.
      jobs.readArrayHeader();
    }
    while (jobs.hasNext()) {
      String id = jobs.readTextOrNull();
      JobState state = state((int) jobs.readLong());
      int attempts = (int) jobs.readLong();
      Instant started = instant(jobs.readLong());
      Instant finished = instant(jobs.readLong());
      String error = jobs.readTextOrNull();
      byte[] result = jobs.readBytesOrNull();
      byte[] record = jobs.readBytesOrNull();
      StoredBody body = record == null ? StoredBody.NONE : StoredBody.of(record);
      boolean keepsPayload = state == JobState.DONE || state == JobState.DEAD;
      into.add(
          new OutboxEntry(
              entryId,
              entryJobs,
              queue,
              id,
              state,
              body.priority(),
              attempts,
              body.maxAttempts() > 0 ? body.maxAttempts() : queueMax,
              instant(body.createdMs()),
              instant(body.dueMs()),
              started,
              finished,
              error,
              result,
              keepsPayload ? body.payloadOrNull() : null));
    }
  }

  /** Gives the jobs from {@code first} on, one entry's, their number as the entry's count. */
  private static void recount(List<OutboxEntry> entries, int first) {
    int jobs = entries.size() - first;
    for (int i = first; i < entries.size(); i++) {
      OutboxEntry e = entries.get(i);
      entries.set(
          i,
          new OutboxEntry(
              e.entryId(),
              jobs,
              e.queue(),
              e.id(),
              e.state(),
              e.priority(),
              e.attempts(),
              e.maxAttempts(),
              e.createdAt(),
              e.dueAt(),
              e.startedAt(),
              e.finishedAt(),
              e.lastError(),
              e.result(),
              e.payload()));
    }
  }

  private static JobState state(int code) {
    return switch (code) {
      case 3 -> JobState.DONE;
      case 4 -> JobState.DEAD;
      case 5 -> JobState.CANCELLED;
      case 6 -> JobState.EXPIRED;
      default -> throw new IllegalArgumentException("an outbox job in state " + code);
    };
  }

  /** An entry of the earlier form: id, st, n (the numbers, comma separated), err, res, pay. */
  private static OutboxEntry singleJob(QueueName queue, String entryId, Map<byte[], byte[]> body) {
    Map<String, byte[]> fields = new HashMap<>();
    body.forEach((k, v) -> fields.put(text(k), v));
    String[] n = text(fields.get("n")).split(",", -1);
    return new OutboxEntry(
        entryId,
        1,
        queue,
        text(fields.get("id")),
        JobState.valueOf(text(fields.get("st"))),
        Integer.parseInt(n[0]),
        Integer.parseInt(n[1]),
        Integer.parseInt(n[2]),
        instant(Long.parseLong(n[3])),
        instant(Long.parseLong(n[4])),
        instant(Long.parseLong(n[5])),
        instant(Long.parseLong(n[6])),
        nonEmptyText(fields.get("err")),
        nonEmpty(fields.get("res")),
        nonEmpty(fields.get("pay")));
  }

  private static Instant instant(long ms) {
    return ms <= 0 ? null : Instant.ofEpochMilli(ms);
  }

  private static byte[] nonEmpty(byte[] value) {
    return value == null || value.length == 0 ? null : value;
  }

  private static String nonEmptyText(byte[] value) {
    return value == null || value.length == 0 ? null : text(value);
  }

  private static String text(byte[] value) {
    return new String(value, StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
