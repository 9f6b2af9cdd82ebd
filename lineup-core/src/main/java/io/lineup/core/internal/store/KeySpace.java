package io.lineup.core.internal.store;

import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every Redis key Lineup uses is named here and nowhere else.
 *
 * <p>A queue's keys all carry its hash tag {@code {namespace/name}}, so a queue lives in one Redis
 * Cluster slot and its scripts may touch all of them. The queue registry is the only key outside a
 * queue's slot, and no script touches it.
 */
public final class KeySpace {
  /** Prefix of every key. */
  public static final String PREFIX = "lu:";

  /** The set of known queues, as {@code namespace/name} members. */
  public static final byte[] QUEUE_REGISTRY = bytes(PREFIX + "queues");

  /** The queue keys in the order every queue script receives them (see {@code lib/keys.lua}). */
  private static final String[] QUEUE_KEY_SUFFIXES = {
    "jobs",
    "ready",
    "delayed",
    "leased",
    "finished",
    "dead",
    "ttl",
    "meta",
    "wake",
    "events",
    "rate",
    "outbox"
  };

  /** What a generated job id starts with; caller-given ids never do. */
  public static final String GENERATED_ID_MARK = "~";

  /** Index of the jobs hash within {@link #queueKeys(QueueName)}. */
  public static final int JOBS_INDEX = 0;

  /** Index of the ready line within {@link #queueKeys(QueueName)}. */
  public static final int READY_INDEX = 1;

  /** Index of the leased set (jobs by lease deadline) within {@link #queueKeys(QueueName)}. */
  public static final int LEASED_INDEX = 3;

  /** Index of the finished set (done, cancelled and expired jobs by finish time). */
  public static final int FINISHED_INDEX = 4;

  /** Index of the TTL set within {@link #queueKeys(QueueName)}. */
  public static final int TTL_INDEX = 6;

  /**
   * Index of the meta hash (settings, counters, completions per second) within {@link
   * #queueKeys(QueueName)}.
   */
  public static final int META_INDEX = 7;

  /** Index of the wake-up list within {@link #queueKeys(QueueName)}. */
  public static final int WAKE_INDEX = 8;

  /** Index of the event stream within {@link #queueKeys(QueueName)}. */
  public static final int EVENTS_INDEX = 9;

  /**
   * Index of the archive outbox (a stream of ended jobs, written while archiving is on) within
   * {@link #queueKeys(QueueName)}.
   */
  public static final int OUTBOX_INDEX = 11;

  private KeySpace() {}

  /** The hash tag of a queue: {@code {namespace/name}}. */
  public static String hashTag(QueueName queue) {
    return "{" + queue.namespace() + "/" + queue.name() + "}";
  }

  /** Queues whose keys are kept built; past this many, keys are built per call. */
  private static final int KEY_CACHE_LIMIT = 10_000;

  private static final Map<QueueName, byte[][]> KEY_CACHE = new ConcurrentHashMap<>();

  /** The twelve keys of a queue, in script order. The array is shared: do not change it. */
  public static byte[][] queueKeys(QueueName queue) {
    byte[][] keys = KEY_CACHE.get(queue);
    if (keys == null) {
      keys = buildQueueKeys(queue);
      if (KEY_CACHE.size() < KEY_CACHE_LIMIT) {
        KEY_CACHE.put(queue, keys);
      }
    }
    return keys;
  }

  private static byte[][] buildQueueKeys(QueueName queue) {
    String base = PREFIX + hashTag(queue) + ":";
    byte[][] keys = new byte[QUEUE_KEY_SUFFIXES.length][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = bytes(base + QUEUE_KEY_SUFFIXES[i]);
    }
    return keys;
  }

  /** The number of keys {@link #queueKeys(QueueName)} returns. */
  public static int queueKeyCount() {
    return QUEUE_KEY_SUFFIXES.length;
  }

  /** The lock key of a unique key: held for the unique window, its value the job id. */
  public static byte[] uniqueKey(QueueName queue, String uniqueKey) {
    return bytes(PREFIX + hashTag(queue) + ":uniq:" + uniqueKey);
  }

  /**
   * The hash holding a job's record, by the rule of {@code lib/job.lua}: a generated id ({@code ~}
   * and the base-62 arrival number) lives in the hash of its 62 consecutive arrivals, named by the
   * id without its last digit and a {@code .} ({@code ~1a0} to {@code ~1az} in {@code <jobs>:~1a.},
   * the first 61, {@code ~1} to {@code ~z}, in {@code <jobs>:~.}); a caller-given id lives in the
   * queue's jobs hash itself.
   */
  public static byte[] recordKey(QueueName queue, String id) {
    if (!id.startsWith(GENERATED_ID_MARK)) {
      return queueKeys(queue)[JOBS_INDEX];
    }
    return bucketKey(queue, id, 1, ".");
  }

  /**
   * Where builds up to November 2026 kept a generated id's record, and {@code lib/job.lua} still
   * looks for one it does not find in {@link #recordKey}: the hash of its 3,844 consecutive
   * arrivals, named by the id without its last two digits ({@code ~100} to {@code ~1zz} in {@code
   * <jobs>:~1}). Empty for a caller-given id, whose record has always been in the jobs hash.
   */
  public static Optional<byte[]> legacyRecordKey(QueueName queue, String id) {
    if (!id.startsWith(GENERATED_ID_MARK)) {
      return Optional.empty();
    }
    return Optional.of(bucketKey(queue, id, 2, ""));
  }

  /**
   * The hash named by a generated id without its last {@code digits} digits (just the {@code ~}
   * when it has no more), then {@code mark}: {@code bucket_key} in {@code lib/job.lua}.
   */
  private static byte[] bucketKey(QueueName queue, String id, int digits, String mark) {
    String bucket =
        id.length() > digits + 1 ? id.substring(0, id.length() - digits) : GENERATED_ID_MARK;
    return bytes(jobsKeyText(queue) + ":" + bucket + mark);
  }

  /**
   * The pattern matching every records hash of generated ids of a queue (for SCAN, to drop a queue
   * whole).
   */
  public static String recordBucketPattern(QueueName queue) {
    return jobsKeyText(queue) + ":" + GENERATED_ID_MARK + "*";
  }

  /**
   * One of the keys a fair queue keeps beside its meta hash, as {@code fair_key_name(part)} in
   * {@code lib/fair.lua} names it (its Java twin): {@code <meta key>:fair:<part>}, in the queue's
   * hash tag. Parts are named in that file's header, such as {@code waiting_counts} or {@code
   * taken}.
   */
  public static String fairKey(QueueName queue, String part) {
    return new String(queueKeys(queue)[META_INDEX], StandardCharsets.UTF_8) + ":fair:" + part;
  }

  /**
   * A SCAN pattern matching the keys a fair queue keeps beside its meta hash ({@code lib/fair.lua}:
   * per-key taggers, settings, counts, parks and rate times), for tools that drop a whole queue.
   */
  public static String fairKeyPattern(QueueName queue) {
    return fairKey(queue, "*");
  }

  private static String jobsKeyText(QueueName queue) {
    return new String(queueKeys(queue)[JOBS_INDEX], StandardCharsets.UTF_8);
  }

  /** The hash of a named record collection (server data such as tokens): {@code lu:rec:{name}}. */
  public static byte[] recordCollection(String collection) {
    return bytes(PREFIX + "rec:{" + collection + "}");
  }

  /** A named lock held by one holder until it expires ({@code SET NX PX}). */
  public static byte[] lock(String name) {
    return bytes(PREFIX + "lock:{" + name + "}");
  }

  /**
   * The set of queues that have schedules, as {@code namespace/name} members: the schedule drivers
   * read it to find the queues to watch. Like the queue registry, it lies outside every queue's
   * slot and no script touches it.
   */
  public static final byte[] SCHEDULED_QUEUES = bytes(PREFIX + "scheduled");

  /**
   * The pub/sub channel on which an engine that wrote a schedule names its queue ({@code
   * namespace/name}), so that every engine's schedule driver reads the queue's due ticks at once.
   */
  public static final byte[] SCHEDULE_WAKES = bytes(PREFIX + "sched_wake");

  /** A queue's schedule due set: schedule name to its next tick (epoch ms), active ones only. */
  public static byte[] scheduleDue(QueueName queue) {
    return bytes(PREFIX + hashTag(queue) + ":sched_due");
  }

  /** A queue's schedule spec hash: schedule name to its encoded spec. */
  public static byte[] scheduleSpecs(QueueName queue) {
    return bytes(PREFIX + hashTag(queue) + ":sched_specs");
  }

  /** A queue's schedule state hash: schedule name to its state text ({@code lib/schedule.lua}). */
  public static byte[] scheduleStates(QueueName queue) {
    return bytes(PREFIX + hashTag(queue) + ":sched_state");
  }

  /** A schedule's history list, newest run first. */
  public static byte[] scheduleHistory(QueueName queue, String name) {
    return bytes(PREFIX + hashTag(queue) + ":sched_hist:" + name);
  }

  /** Registry member of a queue. */
  public static String registryMember(QueueName queue) {
    return queue.namespace() + "/" + queue.name();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
