package io.lineup.server.dispatch;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import io.lineup.server.http.JsonFields;
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

  static final Set<String> FIELDS = Set.of("kind", "initial_ms", "max_ms", "jitter", "schedule_ms");

  static RetryBackoff parse(JsonFields f) {
    if (f == null) {
      return DEFAULT;
    }
    String kind = f.optionalText("kind", 16);
    if (kind == null) {
      kind = f.has("schedule_ms") ? "schedule" : "exponential";
    }
    if (!Set.of("exponential", "fixed", "schedule").contains(kind)) {
      throw ApiException.invalidField(
          f.path("kind"), "must be exponential, fixed or schedule, got " + kind);
    }
    long initial = f.longOr("initial_ms", 0, MAX_WAIT_MS, DEFAULT.initialMs);
    long max = f.longOr("max_ms", 0, MAX_WAIT_MS, DEFAULT.maxMs);
    Double jitter = f.optionalNumber("jitter", 0.0, 1.0);
    List<Long> schedule = new ArrayList<>();
    if (f.has("schedule_ms")) {
      var node = f.raw("schedule_ms");
      if (!node.isArray() || node.isEmpty() || node.size() > EndpointSpec.MAX_LIST) {
        throw ApiException.invalidField(
            f.path("schedule_ms"),
            "must be an array of 1 to " + EndpointSpec.MAX_LIST + " waits in milliseconds");
      }
      for (int i = 0; i < node.size(); i++) {
        var step = node.get(i);
        if (!step.canConvertToLong() || step.asLong() < 0 || step.asLong() > MAX_WAIT_MS) {
          throw ApiException.invalidField(
              f.path("schedule_ms") + "[" + i + "]",
              "must be a whole number of milliseconds from 0 to " + MAX_WAIT_MS);
        }
        schedule.add(step.asLong());
      }
    } else if (kind.equals("schedule")) {
      throw ApiException.invalidField(f.path("schedule_ms"), "is required for kind schedule");
    }
    return new RetryBackoff(
        kind, initial, max, jitter == null ? DEFAULT.jitter : jitter, List.copyOf(schedule));
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

  ObjectNode toJson() {
    ObjectNode node = Json.object();
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
  long longestScheduledMs() {
    // A loop, not a stream: every task submit asks (about 1 % of the server's CPU per task).
    long longest = 0;
    for (long wait : scheduleMs) {
      longest = Math.max(longest, wait);
    }
    return longest;
  }
}
