package io.lineup.client;

import io.lineup.api.KeyFields;
import io.lineup.api.resource.FairKey;
import io.lineup.api.resource.FairKeyCounts;
import java.util.Objects;

/**
 * The fairness keys of a fair queue (queue setting {@code fair}, {@code …/keys}): the keys with
 * most jobs, one key's settings and counts, its own weight and limits, pausing and resuming it, and
 * deleting its waiting jobs. Get it from {@link LineupClient#keys()}. Reading takes any scope of
 * the namespace; changing a key or deleting its jobs the {@code manage} scope.
 *
 * <pre>{@code
 * QueueName emails = QueueName.of("shop", "emails");
 * client.keys().set(emails, "acme", KeySettings.queueDefaults().weight(3));
 * FairKeyCounts busiest = client.keys().top(emails, KeysClient.By.WAITING, 10);
 * }</pre>
 *
 * <p>A key is 1 to 128 characters of letters, digits and {@code - _ . : @ / + =}; another is
 * refused with {@link InvalidRequestException} naming {@code key}. A key never seen reads as one
 * with the queue's settings and no jobs.
 */
public final class KeysClient {
  /** Most keys {@link #top} answers. */
  public static final int MAX_TOP = KeyFields.MAX_LIMIT;

  /** What {@link #top} ranks keys by. */
  public enum By {
    /** Jobs waiting: ready, delayed or held by a pause. */
    WAITING,
    /** Jobs leased now. */
    LEASED
  }

  private final Transport transport;

  KeysClient(Transport transport) {
    this.transport = transport;
  }

  private static String base(QueueName queue) {
    return "/v1/queues/"
        + Transport.segment(queue.namespace())
        + "/"
        + Transport.segment(queue.name())
        + "/keys";
  }

  private static String one(QueueName queue, String key) {
    return base(queue) + "/" + Transport.segment(Objects.requireNonNull(key, "key"));
  }

  /**
   * The keys with most jobs waiting or leased, most first, with how many keys have jobs waiting and
   * leased.
   *
   * @param limit most keys answered, 1 to {@value #MAX_TOP}
   * @throws IllegalArgumentException when limit is out of range
   */
  public FairKeyCounts top(QueueName queue, By by, int limit) {
    if (limit < 1 || limit > MAX_TOP) {
      throw new IllegalArgumentException("top takes 1 to " + MAX_TOP + " keys; got " + limit);
    }
    String rank = by == By.LEASED ? "leased" : "waiting";
    return Json.read(
        transport
            .get(
                base(queue) + "?" + KeyFields.BY + "=" + rank + "&" + KeyFields.LIMIT + "=" + limit)
            .body(),
        FairKeyCounts.class);
  }

  /** One key's own settings, the settings that apply to it, and its counts. */
  public FairKey get(QueueName queue, String key) {
    return Json.read(transport.get(one(queue, key)).body(), FairKey.class);
  }

  /**
   * Sets all of a key's own settings at once.
   *
   * @return the key as it stands after
   * @throws InvalidRequestException when a value is out of bounds (the field names it)
   * @throws ForbiddenException when the token lacks the {@code manage} scope
   */
  public FairKey set(QueueName queue, String key, KeySettings settings) {
    return Json.read(transport.put(one(queue, key), settings.toJson()).body(), FairKey.class);
  }

  /**
   * Pauses a key: leases pass its jobs over while other keys' go on; publishing to it still works.
   *
   * @return the key as it stands after
   */
  public FairKey pause(QueueName queue, String key) {
    return Json.read(
        transport.post(one(queue, key) + "/pause", Json.object()).body(), FairKey.class);
  }

  /**
   * Resumes a paused key: its held jobs go back to the line at its next turns.
   *
   * @return the key as it stands after
   */
  public FairKey resume(QueueName queue, String key) {
    return Json.read(
        transport.post(one(queue, key) + "/resume", Json.object()).body(), FairKey.class);
  }

  /**
   * Deletes a key's waiting jobs (ready, delayed or held by a pause); its leased jobs run on.
   *
   * @return how many jobs were deleted
   */
  public long deleteWaiting(QueueName queue, String key) {
    return transport.delete(one(queue, key) + "/jobs").body().path("deleted").asLong();
  }
}
