package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.Replies;
import io.lineup.core.internal.store.ScriptReplies;
import io.lineup.core.model.FairnessKey;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.KeyCounts;
import io.lineup.core.model.KeySettings;
import io.lineup.core.model.KeyStatus;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The fairness keys of fair queues (queue setting {@code fair}): each key's own weight and limits,
 * pausing one key, its counts, the keys with most jobs, and deleting one key's waiting jobs. Get it
 * with {@link Lineup#fairness()}; docs/fairness.md explains the order a fair queue serves.
 *
 * <p>Thread-safe. Every method may throw {@link RedisUnavailableException} when Redis cannot be
 * reached, and {@link InvalidArgumentException} for a key that breaks {@link FairnessKey}'s rule.
 */
public final class Fairness {
  /** Parked jobs moved back to the line per script call when a key is resumed. */
  static final int UNPARK_STEP = 1000;

  /** Jobs looked at per script call, in the line and in the delayed set, when deleting a key's. */
  static final int DROP_STEP = 1000;

  /** Most keys {@link #top} answers. */
  public static final int MAX_TOP = 1000;

  private final RedisStore store;

  Fairness(RedisStore store) {
    this.store = store;
  }

  /** One key's settings and counts (a key never seen has the queue's settings and no jobs). */
  public KeyStatus key(QueueName queue, String key) {
    FairnessKey.check("key", key);
    ScriptReplies.FairKeyReply reply = store.fairKeyRead(queue, key);
    return new KeyStatus(
        key,
        settings(reply.own(), true),
        settings(reply.effective(), false),
        reply.waiting(),
        reply.leased(),
        reply.parked());
  }

  /**
   * Sets a key's own settings, all of them at once (null values: the queue's). Setting {@code
   * paused} to false resumes the key ({@link #resume}).
   *
   * @return the key as it stands after the change
   */
  public KeyStatus configure(QueueName queue, String key, KeySettings settings) {
    FairnessKey.check("key", key);
    if (settings == null) {
      throw new InvalidArgumentException("settings", "is required");
    }
    long parked =
        store.fairKeyWrite(
            queue,
            key,
            orDefault(settings.weight()),
            orDefault(settings.concurrency()),
            orDefault(settings.rate()),
            settings.ratePeriod() == null ? -1 : settings.ratePeriod().toMillis(),
            orDefault(settings.maxWaiting()),
            settings.paused());
    if (!settings.paused()) {
      while (parked > 0) {
        parked = store.fairUnpark(queue, key, UNPARK_STEP);
      }
    }
    return key(queue, key);
  }

  /**
   * Pauses one key: leases pass its jobs over (moving its ready jobs out of the line as they meet
   * them) while other keys' jobs go on; publishing to it still works. Its own settings are kept.
   */
  public KeyStatus pause(QueueName queue, String key) {
    return configure(queue, key, key(queue, key).own().withPaused(true));
  }

  /**
   * Resumes a paused key: its held jobs go back to the line at its next turns, as jobs of a key
   * that just arrived (not ahead of the keys that kept being served).
   */
  public KeyStatus resume(QueueName queue, String key) {
    return configure(queue, key, key(queue, key).own().withPaused(false));
  }

  /**
   * The keys with the most jobs waiting or leased, most first.
   *
   * @param limit most keys answered, 1 to {@value #MAX_TOP}
   */
  public KeyCounts top(QueueName queue, KeyCounts.By by, int limit) {
    if (limit < 1 || limit > MAX_TOP) {
      throw new InvalidArgumentException("limit", "must be between 1 and " + MAX_TOP);
    }
    ScriptReplies.FairTopReply reply =
        store.fairTop(queue, by == KeyCounts.By.LEASED ? "leased" : "waiting", limit);
    List<KeyCounts.KeyCount> top = new ArrayList<>();
    reply.top().forEach((key, count) -> top.add(new KeyCounts.KeyCount(key, count)));
    return new KeyCounts(reply.keysWaiting(), reply.keysLeased(), top);
  }

  /**
   * Deletes every waiting job of one key (ready, delayed or held by a pause); its leased jobs run
   * on. Walks the queue's line and delayed set {@value #DROP_STEP} jobs per Redis call, stopping as
   * soon as the key has nothing waiting; jobs of the key published meanwhile may stay.
   *
   * @return how many jobs were deleted
   */
  public long deleteWaiting(QueueName queue, String key) {
    FairnessKey.check("key", key);
    long deleted = 0;
    long lineCursor = 0;
    long delayedCursor = 0;
    do {
      ScriptReplies.FairDropReply reply =
          store.fairDrop(queue, key, lineCursor, delayedCursor, DROP_STEP);
      deleted += reply.deleted();
      lineCursor = reply.lineCursor();
      delayedCursor = reply.delayedCursor();
    } while (lineCursor >= 0 || delayedCursor >= 0);
    return deleted;
  }

  private static int orDefault(Integer value) {
    return value == null ? -1 : value;
  }

  private static KeySettings settings(List<Object> values, boolean own) {
    return new KeySettings(
        value(values.get(0), own),
        value(values.get(1), own),
        value(values.get(2), own),
        values.get(3) == null || Replies.asLong(values.get(3)) < 0
            ? null
            : Duration.ofMillis(Replies.asLong(values.get(3))),
        value(values.get(4), own),
        Replies.asLong(values.get(5)) == 1);
  }

  private static Integer value(Object value, boolean own) {
    long v = Replies.asLong(value);
    return own && v < 0 ? null : (int) v;
  }
}
