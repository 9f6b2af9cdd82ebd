package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The wait before a task's next attempt: exponential with jitter and a cap, fixed, or a schedule
 * (one wait per retry, the last repeated).
 *
 * @param kind {@code exponential}, {@code fixed} or {@code schedule}
 * @param initialMs the first wait (exponential, fixed), in milliseconds
 * @param maxMs the longest wait (exponential), in milliseconds
 * @param jitter the largest fraction a wait is shortened by at random, 0 to 1
 * @param scheduleMs the waits of a schedule, in milliseconds (empty for the other kinds)
 */
public record RetryBackoff(
    String kind, long initialMs, long maxMs, double jitter, List<Long> scheduleMs) {

  /** Longest single wait: one day. */
  public static final long MAX_WAIT_MS = 24L * 3_600_000;

  /** Exponential from 1 s, capped at 5 min, 20 % jitter. */
  public static final RetryBackoff DEFAULT =
      new RetryBackoff("exponential", 1000, 300_000, 0.2, List.of());

  /** The kinds of backoff. */
  public static final Set<String> KINDS = Set.of("exponential", "fixed", "schedule");

  /** Reads the stored form ({@link #toStored()}); a missing one is the default. */
  static RetryBackoff fromStored(JsonNode node) {
    if (!node.isObject()) {
      return DEFAULT;
    }
    List<Long> schedule = new ArrayList<>();
    node.path("schedule_ms").forEach(step -> schedule.add(step.asLong()));
    return new RetryBackoff(
        node.path("kind").asText(DEFAULT.kind),
        node.path("initial_ms").asLong(DEFAULT.initialMs),
        node.path("max_ms").asLong(DEFAULT.maxMs),
        node.path("jitter").asDouble(DEFAULT.jitter),
        List.copyOf(schedule));
  }

  /**
   * The wait after failed attempt {@code attempt} (1 = the first).
   *
   * @return milliseconds, at least 0
   */
  public long waitAfter(int attempt) {
    long base;
    switch (kind) {
      case "schedule" -> {
        return scheduleMs.get(Math.min(attempt, scheduleMs.size()) - 1);
      }
      case "fixed" -> base = initialMs;
      default -> {
        int doublings = Math.min(Math.max(0, attempt - 1), 40);
        base = Math.min(maxMs, initialMs * (1L << Math.min(doublings, 30)));
      }
    }
    if (jitter <= 0 || base == 0) {
      return base;
    }
    return base - (long) (base * jitter * ThreadLocalRandom.current().nextDouble());
  }

  ObjectNode toStored() {
    ObjectNode node = DispatchJson.object();
    node.put("kind", kind);
    node.put("initial_ms", initialMs);
    node.put("max_ms", maxMs);
    node.put("jitter", jitter);
    if (scheduleMs.isEmpty()) {
      node.putNull("schedule_ms");
    } else {
      ArrayNode s = node.putArray("schedule_ms");
      scheduleMs.forEach(s::add);
    }
    return node;
  }

  /** The longest wait of the schedule, in milliseconds; 0 for the other kinds. */
  public long longestScheduledMs() {
    // A loop, not a stream: every task submit asks (about 1 % of the server's CPU per task).
    long longest = 0;
    for (long wait : scheduleMs) {
      longest = Math.max(longest, wait);
    }
    return longest;
  }
}
