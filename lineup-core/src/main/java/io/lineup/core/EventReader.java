package io.lineup.core;

import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lineup.core.internal.KeySpace;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Reads a queue's capped event stream (written by the scripts, see {@code lib/events.lua}). */
final class EventReader {
  private final Engine engine;

  EventReader(Engine engine) {
    this.engine = engine;
  }

  List<QueueEvent> read(QueueName queue, String afterStreamId, int count) {
    Checks.page(0, count);
    if (afterStreamId != null && !afterStreamId.matches("\\d{1,20}-\\d{1,20}")) {
      throw new InvalidArgumentException("after", "must be a stream id such as 1700000000000-0");
    }
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.EVENTS_INDEX];
    Range<String> range =
        afterStreamId == null
            ? Range.unbounded()
            : Range.from(Range.Boundary.excluding(afterStreamId), Range.Boundary.unbounded());
    List<StreamMessage<byte[], byte[]>> entries =
        engine.gateway().await(engine.gateway().commands().xrange(key, range, Limit.from(count)));
    List<QueueEvent> events = new ArrayList<>(entries.size());
    for (StreamMessage<byte[], byte[]> entry : entries) {
      Map<String, String> fields = new java.util.HashMap<>();
      entry.getBody().forEach((k, v) -> fields.put(text(k), text(v)));
      List<String> ids =
          fields.containsKey("ids")
              ? Arrays.asList(fields.get("ids").split(","))
              : List.of(fields.get("first"), fields.get("last"));
      events.add(
          new QueueEvent(
              entry.getId(),
              fields.get("e"),
              Integer.parseInt(fields.getOrDefault("n", Integer.toString(ids.size()))),
              List.copyOf(ids),
              Instant.ofEpochMilli(Long.parseLong(fields.get("at")))));
    }
    return events;
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
