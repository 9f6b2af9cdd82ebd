package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Fairness;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.KeyStatus;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.server.http.Json;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Keys section of the dashboard's queue page, as one JSON answer: for a fair queue, how many
 * fairness keys have jobs waiting and leased, and the keys with most jobs waiting and most leased,
 * each with its share of the queue's waiting jobs, its effective weight and limits and whether it
 * is paused; for a queue that is not fair, only that.
 */
final class DashboardKeys {
  /** The key the engine files the jobs of a fair queue that carry no key under. */
  static final String NO_KEY = "";

  /** A count of the unnamed key that its lists do not tell (it is not among their keys). */
  private static final long UNKNOWN = -1;

  private final Fairness fairness;

  DashboardKeys(Fairness fairness) {
    this.fairness = fairness;
  }

  /**
   * The answer for one queue.
   *
   * @param stats the queue's statistics, read just before (its settings say whether it is fair)
   * @param limit most keys in each of the two lists, 1 to {@link Fairness#MAX_TOP}
   */
  ObjectNode view(QueueStats stats, int limit) {
    QueueName queue = stats.queue();
    ObjectNode answer = Json.object();
    answer.put("queue", queue.toString());
    boolean fair = Boolean.TRUE.equals(stats.settings().fair());
    answer.put("fair", fair);
    if (!fair) {
      return answer;
    }
    KeyCounts byWaiting = fairness.top(queue, KeyCounts.By.WAITING, limit);
    KeyCounts byLeased = fairness.top(queue, KeyCounts.By.LEASED, limit);
    // One read per key shown, even when a key is in both lists.
    Map<String, KeyStatus> keys = new LinkedHashMap<>();
    readEach(queue, stats.settings(), byWaiting, byLeased, keys);
    // Jobs held by a paused key are out of the ready set; count those the lists show.
    long waiting = stats.ready() + stats.delayed();
    for (KeyStatus key : keys.values()) {
      waiting += key.parked();
    }
    answer.put("waiting", waiting);
    answer.put("keys_waiting", byWaiting.keysWaiting());
    answer.put("keys_leased", byLeased.keysLeased());
    answer.put("limit", limit);
    list(answer.putArray("by_waiting"), byWaiting.top(), keys, waiting);
    list(answer.putArray("by_leased"), byLeased.top(), keys, waiting);
    return answer;
  }

  private void readEach(
      QueueName queue,
      QueueSettings settings,
      KeyCounts byWaiting,
      KeyCounts byLeased,
      Map<String, KeyStatus> into) {
    for (List<KeyCounts.KeyCount> top : List.of(byWaiting.top(), byLeased.top())) {
      for (KeyCounts.KeyCount count : top) {
        into.computeIfAbsent(
            count.key(),
            key ->
                NO_KEY.equals(key)
                    ? unnamed(settings, byWaiting, byLeased)
                    : fairness.key(queue, key));
      }
    }
  }

  /**
   * The unnamed key cannot be read by name (it breaks the key rule) nor given settings of its own:
   * the queue's key settings apply to it, it is never paused, and its counts are those of the lists
   * ({@link #UNKNOWN} where a list that leaves keys out does not hold it).
   */
  private static KeyStatus unnamed(
      QueueSettings settings, KeyCounts byWaiting, KeyCounts byLeased) {
    KeySettings effective =
        new KeySettings(
            1,
            orZero(settings.keyConcurrency()),
            orZero(settings.keyRate()),
            settings.keyRatePeriod() == null ? Duration.ofSeconds(1) : settings.keyRatePeriod(),
            orZero(settings.keyMaxWaiting()),
            false);
    return new KeyStatus(
        NO_KEY,
        KeySettings.QUEUE_DEFAULTS,
        effective,
        countIn(byWaiting, byWaiting.keysWaiting()),
        countIn(byLeased, byLeased.keysLeased()),
        0);
  }

  /**
   * The unnamed key's count in a list: its entry, else none when the list holds every key with a
   * count (of {@code keys}), else unknown.
   */
  private static long countIn(KeyCounts counts, long keys) {
    for (KeyCounts.KeyCount count : counts.top()) {
      if (NO_KEY.equals(count.key())) {
        return count.count();
      }
    }
    return counts.top().size() >= keys ? 0 : UNKNOWN;
  }

  /** A key's waiting jobs as a percent of the queue's, to one decimal, at most 100. */
  static double sharePercent(long keyWaiting, long queueWaiting) {
    if (queueWaiting <= 0) {
      return 0;
    }
    return Math.min(100.0, Math.round(1000.0 * keyWaiting / queueWaiting) / 10.0);
  }

  private static void putCount(ObjectNode node, String name, long count) {
    if (count == UNKNOWN) {
      node.putNull(name);
    } else {
      node.put(name, count);
    }
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }

  private static void list(
      ArrayNode into, List<KeyCounts.KeyCount> top, Map<String, KeyStatus> keys, long waiting) {
    for (KeyCounts.KeyCount count : top) {
      KeyStatus key = keys.get(count.key());
      ObjectNode node = into.addObject();
      node.put("key", key.key());
      node.put("count", count.count());
      putCount(node, "waiting", key.waiting());
      putCount(node, "leased", key.leased());
      node.put("parked", key.parked());
      if (key.waiting() == UNKNOWN) {
        node.putNull("share_percent");
      } else {
        node.put("share_percent", sharePercent(key.waiting(), waiting));
      }
      node.put("paused", key.effective().paused());
      ObjectNode effective = node.putObject("effective");
      effective.put("weight", key.effective().weight());
      effective.put("concurrency", key.effective().concurrency());
      effective.put("rate", key.effective().rate());
      Duration period = key.effective().ratePeriod();
      if (period == null) {
        effective.putNull("rate_period_ms");
      } else {
        effective.put("rate_period_ms", period.toMillis());
      }
      effective.put("max_waiting", key.effective().maxWaiting());
    }
  }
}
