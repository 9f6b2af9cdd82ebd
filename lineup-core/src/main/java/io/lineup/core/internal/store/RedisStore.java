package io.lineup.core.internal.store;

import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.SetArgs;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lineup.core.internal.store.ScriptReplies.BatchReply;
import io.lineup.core.internal.store.ScriptReplies.CancelReply;
import io.lineup.core.internal.store.ScriptReplies.ExtendReply;
import io.lineup.core.internal.store.ScriptReplies.LeaseReply;
import io.lineup.core.internal.store.ScriptReplies.NackReply;
import io.lineup.core.internal.store.ScriptReplies.StatsReply;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.OutboxEntry;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueEvent;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisServerInfo;
import io.lineup.core.model.RedisUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The engine's one owner of Redis I/O: a typed method per script and per plain command. Each builds
 * the keys ({@link KeySpace}) and arguments, runs the call through the {@link RedisGateway} and
 * decodes the reply ({@link ScriptReplies}) into named records. Arguments are taken as checked:
 * validation is the caller's (the engine's public classes), so nothing here throws {@link
 * io.lineup.core.model.InvalidArgumentException}.
 *
 * <p>Every method may throw {@link io.lineup.core.model.RedisUnavailableException} when Redis does
 * not answer in time, {@link io.lineup.core.model.RedisOutOfMemoryException} when Redis refuses a
 * write at its memory limit, and {@link io.lineup.core.model.LineupException} when Redis refuses a
 * command otherwise. Asynchronous methods fail their future with the same exceptions.
 */
public final class RedisStore implements AutoCloseable {
  private final RedisGateway gateway;
  private final Supplier<String> scriptTime;

  /**
   * @param gateway the connections
   * @param scriptTime the clock the scripts compare due times against, as the argument every script
   *     takes: empty for the Redis server's clock, or a time in milliseconds a test set
   */
  public RedisStore(RedisGateway gateway, Supplier<String> scriptTime) {
    this.gateway = gateway;
    this.scriptTime = scriptTime;
    // Before any call's timeout runs, not inside the first one's.
    ScriptLibrary.prepare();
  }

  /** The schedules' state, on the same connections and clock. */
  public ScheduleStore schedules() {
    return new ScheduleStore(gateway, scriptTime);
  }

  /** An ack a caller asks for: the job, its lease token, and its result (null = none). */
  public record Ack(String id, String token, byte[] result) {}

  /** The background sweeps, one script each. */
  public enum Sweep {
    /** Moves due delayed jobs to the ready line ({@code promote.lua}). */
    PROMOTE(ScriptLibrary.PROMOTE, false),
    /** Returns expired leases to the line or to dead letters ({@code reclaim.lua}). */
    RECLAIM(ScriptLibrary.RECLAIM, true),
    /** Ends jobs past their TTL ({@code expire.lua}). */
    EXPIRE(ScriptLibrary.EXPIRE, false),
    /** Drops finished records past retention ({@code retention.lua}). */
    RETENTION(ScriptLibrary.RETENTION, false);

    private final LuaScript script;
    private final boolean withRandom;

    Sweep(LuaScript script, boolean withRandom) {
      this.script = script;
      this.withRandom = withRandom;
    }
  }

  private String now() {
    return scriptTime.get();
  }

  private Object run(LuaScript script, QueueName queue, Args args) {
    return gateway.run(script, KeySpace.queueKeys(queue), args.toArray());
  }

  /**
   * Waits for a reply of an asynchronous method within the command timeout.
   *
   * @throws io.lineup.core.model.RedisUnavailableException when Redis does not answer in time
   */
  public <T> T await(CompletableFuture<T> reply) {
    return gateway.await(reply);
  }

  // ---- jobs ----

  /**
   * Publishes checked jobs in one script call without blocking.
   *
   * @return the results in job order
   */
  public CompletableFuture<List<PublishResult>> publish(QueueName queue, List<NewJob> jobs) {
    return publish(queue, jobs, NO_FENCE);
  }

  /** A fence argument that binds a publish to no fence (fences are never negative). */
  public static final long NO_FENCE = -1;

  /**
   * {@link #publish} bound to a fence: the call writes nothing unless the queue's fence is {@code
   * fence}, and its future then fails with {@link io.lineup.core.model.FenceMismatchException}.
   *
   * @param fence the fence the queue must hold, or {@link #NO_FENCE} for none
   */
  public CompletableFuture<List<PublishResult>> publish(
      QueueName queue, List<NewJob> jobs, long fence) {
    return gateway
        .runAsync(
            ScriptLibrary.PUBLISH,
            publishKeys(queue, jobs),
            PublishWire.arguments(now(), fenceArgument(fence), jobs))
        .thenApply(reply -> ScriptReplies.publish(reply, jobs.size(), queue, fence));
  }

  /** {@link #publish(QueueName, List, long)} on the connection of durable publishes. */
  public CompletableFuture<List<PublishResult>> publishForReplicas(
      QueueName queue, List<NewJob> jobs, long fence) {
    return gateway
        .runDurableAsync(
            ScriptLibrary.PUBLISH,
            publishKeys(queue, jobs),
            PublishWire.arguments(now(), fenceArgument(fence), jobs))
        .thenApply(reply -> ScriptReplies.publish(reply, jobs.size(), queue, fence));
  }

  private static String fenceArgument(long fence) {
    return fence < 0 ? PublishWire.NO_FENCE : Long.toString(fence);
  }

  private static final byte[] FENCE = utf8("fence");

  /**
   * Sets the queue's fence (its meta-hash field {@code fence}), one command, so atomic with every
   * publish of the queue.
   */
  public void setFence(QueueName queue, long fence) {
    gateway.await(
        gateway
            .commands()
            .hset(
                KeySpace.queueKeys(queue)[KeySpace.META_INDEX], FENCE, utf8(Long.toString(fence))));
  }

  /** Sets the queue's fence only when it has none (HSETNX); returns whether it was set. */
  public boolean setFenceIfAbsent(QueueName queue, long fence) {
    return Boolean.TRUE.equals(
        gateway.await(
            gateway
                .commands()
                .hsetnx(
                    KeySpace.queueKeys(queue)[KeySpace.META_INDEX],
                    FENCE,
                    utf8(Long.toString(fence)))));
  }

  /** The queue's fence, empty when it has none. */
  public OptionalLong fence(QueueName queue) {
    byte[] value =
        gateway.await(
            gateway.commands().hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], FENCE));
    return value == null
        ? OptionalLong.empty()
        : OptionalLong.of(Long.parseLong(new String(value, StandardCharsets.US_ASCII)));
  }

  /**
   * {@link #publish} on the connection of durable publishes, so that {@link #awaitReplicas} waits
   * for these writes.
   */
  public CompletableFuture<List<PublishResult>> publishForReplicas(
      QueueName queue, List<NewJob> jobs) {
    return publishForReplicas(queue, jobs, NO_FENCE);
  }

  /**
   * Waits until {@code replicas} replicas of the queue's server (in a Cluster, the master of its
   * slot) hold every publish {@link #publishForReplicas} sent so far, at most {@code timeout}.
   */
  public CompletableFuture<RedisGateway.ReplicaAcknowledgement> awaitReplicas(
      QueueName queue, int replicas, Duration timeout) {
    return gateway.awaitReplicas(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], replicas, timeout);
  }

  /**
   * One stored setting of the queue (its meta-hash field), without blocking; null when never set.
   */
  public CompletableFuture<String> storedSetting(QueueName queue, String storedName) {
    return RedisGateway.translated(
        gateway
            .commands()
            .hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], utf8(storedName))
            .thenApply(value -> value == null ? null : new String(value, StandardCharsets.UTF_8)));
  }

  /**
   * {@link #await} allowing {@code extra} beyond the command timeout, for a reply Redis holds back
   * on purpose (a durable publish's {@code WAIT}).
   */
  public <T> T awaitLonger(CompletableFuture<T> reply, Duration extra) {
    return gateway.awaitLonger(reply, extra);
  }

  private static byte[][] publishKeys(QueueName queue, List<NewJob> jobs) {
    byte[][] queueKeys = KeySpace.queueKeys(queue);
    List<byte[]> uniqueKeys = null;
    for (NewJob job : jobs) {
      if (job.uniqueKey() != null) {
        if (uniqueKeys == null) {
          uniqueKeys = new ArrayList<>();
        }
        uniqueKeys.add(KeySpace.uniqueKey(queue, job.uniqueKey()));
      }
    }
    byte[][] keys = queueKeys;
    if (uniqueKeys != null) {
      keys = Arrays.copyOf(queueKeys, queueKeys.length + uniqueKeys.size());
      for (int i = 0; i < uniqueKeys.size(); i++) {
        keys[queueKeys.length + i] = uniqueKeys.get(i);
      }
    }
    return keys;
  }

  /**
   * One lease call: settles {@code acks} (all of {@code queue}), then leases up to {@code count}
   * jobs (0 = only settle).
   */
  public LeaseReply lease(QueueName queue, int count, List<Ack> acks) {
    return sendLease(queue, count, acks, null).await();
  }

  /**
   * Sends the call {@link #lease} makes without waiting for its reply, which {@link
   * PendingLease#await()} reads later. Calls sent on one engine reach Redis in the order sent. A
   * named consumer takes part in the queue's due watch (lease.lua, lib/due_watch.lua): of the
   * consumers a delayed job leaves idle, one waits until it falls due and the others until the
   * script's slack after it; a call that asks for no jobs ({@code count} 0) or fills the consumer's
   * slots gives the watch up.
   *
   * @param consumer the consumer's name, the same on all its calls and unique among the queue's
   *     consumers; null for a caller that takes no part (a one-off lease)
   */
  public PendingLease sendLease(QueueName queue, int count, List<Ack> acks, String consumer) {
    String nonce = LeaseNonce.next();
    Args args = new Args(6 + acks.size() * 3);
    args.add(now())
        .add(count)
        .add(nonce)
        .add(ThreadLocalRandom.current().nextDouble())
        .add(acks.size());
    addAcks(args, acks);
    if (consumer != null) {
      args.add(consumer);
    }
    return new PendingLease(
        gateway,
        queue,
        nonce,
        count,
        acks,
        gateway.runAsync(ScriptLibrary.LEASE, KeySpace.queueKeys(queue), args.toArray()));
  }

  /** Settles acks of one queue in one script call without blocking; codes in ack order. */
  public CompletableFuture<List<ScriptCode>> ack(QueueName queue, List<Ack> acks) {
    Args args = new Args(2 + acks.size() * 3).add(now()).add(acks.size());
    addAcks(args, acks);
    return gateway
        .runAsync(ScriptLibrary.ACK, KeySpace.queueKeys(queue), args.toArray())
        .thenApply(ScriptReplies::codes);
  }

  private static void addAcks(Args args, List<Ack> acks) {
    for (Ack ack : acks) {
      args.add(ack.id()).add(ack.token()).add(ack.result());
    }
  }

  /**
   * A leased job failed.
   *
   * @param retryDelay the delay before it is due again; null for the queue's backoff
   */
  public NackReply nack(
      QueueName queue, String id, String token, String error, Duration retryDelay) {
    Args args =
        new Args(6)
            .add(now())
            .add(id)
            .add(token)
            .add(error)
            .add(retryDelay == null ? -1 : retryDelay.toMillis())
            .add(ThreadLocalRandom.current().nextDouble());
    return ScriptReplies.nack(run(ScriptLibrary.NACK, queue, args));
  }

  /**
   * Extends a lease.
   *
   * @param timeToRun the new time-to-run from now; null for the job's own
   */
  public ExtendReply extend(QueueName queue, String id, String token, Duration timeToRun) {
    Args args =
        new Args(4).add(now()).add(id).add(token).add(timeToRun == null ? 0 : timeToRun.toMillis());
    return ScriptReplies.extend(run(ScriptLibrary.EXTEND, queue, args));
  }

  /**
   * Takes a leased job's slot of the queue's rate now, or says how long to wait ({@code
   * rate_slot.lua}).
   */
  public ScriptReplies.RateSlotReply rateSlot(QueueName queue, String id, int attempt) {
    Args args = new Args(3).add(now()).add(id).add(attempt);
    return ScriptReplies.rateSlot(run(ScriptLibrary.RATE_SLOT, queue, args));
  }

  /** Gives a leased job back to its place in line, the attempt not counted. */
  public ScriptCode release(QueueName queue, String id, String token) {
    Args args = new Args(3).add(now()).add(id).add(token);
    return ScriptReplies.release(run(ScriptLibrary.RELEASE, queue, args));
  }

  /** Cancels a job in any unfinished state. */
  public CancelReply cancel(QueueName queue, String id) {
    return ScriptReplies.cancel(run(ScriptLibrary.CANCEL, queue, new Args(2).add(now()).add(id)));
  }

  /**
   * Moves a finished job's record forward in the retention line so that the retention sweep drops
   * it once {@code grace} has passed from now (a record due sooner keeps its time).
   *
   * @return OK when the job has a finished record, NOT_FOUND otherwise (unknown or not finished)
   */
  public ScriptCode shortenRetention(QueueName queue, String id, Duration grace) {
    Args args = new Args(3).add(now()).add(id).add(grace.toMillis());
    return ScriptReplies.shorten(run(ScriptLibrary.SHORTEN, queue, args));
  }

  /** A job as it stands, or empty when its record is gone. */
  public Optional<JobInfo> get(QueueName queue, String id) {
    return ScriptReplies.get(
        queue, id, run(ScriptLibrary.GET, queue, new Args(2).add(now()).add(id)));
  }

  /** A ready job's rank in the line (one ZRANK), or -1 when it is not in the ready line. */
  public long rank(QueueName queue, String id) {
    Long rank =
        gateway.await(
            gateway.commands().zrank(KeySpace.queueKeys(queue)[KeySpace.READY_INDEX], utf8(id)));
    return rank == null ? -1 : rank;
  }

  /**
   * The ranks of several jobs in the ready line (ZRANKs sent together, one round trip), in the
   * order of {@code ids}; -1 for a job not in the ready line.
   */
  public long[] ranks(QueueName queue, List<String> ids) {
    byte[] ready = KeySpace.queueKeys(queue)[KeySpace.READY_INDEX];
    List<CompletableFuture<Long>> replies = new ArrayList<>(ids.size());
    for (String id : ids) {
      replies.add(gateway.commands().zrank(ready, utf8(id)).toCompletableFuture());
    }
    long[] ranks = new long[ids.size()];
    for (int i = 0; i < ranks.length; i++) {
      Long rank = gateway.await(replies.get(i));
      ranks[i] = rank == null ? -1 : rank;
    }
    return ranks;
  }

  /** The id of the newest entry of the queue's event stream (one XREVRANGE), or null when none. */
  public String lastEventId(QueueName queue) {
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.EVENTS_INDEX];
    List<StreamMessage<byte[], byte[]>> newest =
        gateway.await(gateway.commands().xrevrange(key, Range.unbounded(), Limit.from(1)));
    return newest.isEmpty() ? null : newest.get(0).getId();
  }

  /**
   * Whether a job's record is kept: one HEXISTS on its records hash and, for a generated id, one on
   * the hash an earlier version kept it in ({@link KeySpace#legacyRecordKey}), sent together.
   */
  public boolean recordExists(QueueName queue, String id) {
    byte[] field = utf8(id);
    var current = gateway.commands().hexists(KeySpace.recordKey(queue, id), field);
    // Both asked at once, so a miss costs one round trip, not two.
    Optional<byte[]> legacy = KeySpace.legacyRecordKey(queue, id);
    var earlier = legacy.map(key -> gateway.commands().hexists(key, field));
    return Boolean.TRUE.equals(gateway.await(current))
        || (earlier.isPresent() && Boolean.TRUE.equals(gateway.await(earlier.get())));
  }

  // ---- queues ----

  /** Counts, service rate, stored settings and counters of a queue, read in one script call. */
  public StatsReply stats(QueueName queue) {
    return ScriptReplies.stats(run(ScriptLibrary.STATS, queue, new Args(1).add(now())));
  }

  /** Ready jobs in lease order from {@code offset}. */
  public List<PeekedJob> peek(QueueName queue, int offset, int count) {
    return ScriptReplies.peek(run(ScriptLibrary.PEEK, queue, new Args(2).add(offset).add(count)));
  }

  /**
   * Stores settings given as meta-hash name/value pairs (an empty value restores the default) and
   * wakes the queue's consumers.
   */
  public void configure(QueueName queue, List<String> pairs) {
    Args args = new Args(pairs.size());
    pairs.forEach(args::add);
    run(ScriptLibrary.CONFIGURE, queue, args);
  }

  /**
   * Up to {@code count} entries of the queue's event stream after {@code afterStreamId} (null =
   * from the oldest kept).
   */
  public List<QueueEvent> events(QueueName queue, String afterStreamId, int count) {
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.EVENTS_INDEX];
    Range<String> range =
        afterStreamId == null
            ? Range.unbounded()
            : Range.from(Range.Boundary.excluding(afterStreamId), Range.Boundary.unbounded());
    List<StreamMessage<byte[], byte[]>> entries =
        gateway.await(gateway.commands().xrange(key, range, Limit.from(count)));
    List<QueueEvent> events = new ArrayList<>(entries.size());
    for (StreamMessage<byte[], byte[]> entry : entries) {
      Map<String, String> fields = new HashMap<>();
      entry.getBody().forEach((k, v) -> fields.put(text(k), text(v)));
      // lib/events.lua writes either the ids themselves or the first and last of a run.
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

  /**
   * Runs a sweep on every registered queue, again on a queue while a call hit its limit, at most
   * {@code maxCallsPerQueue} calls per queue so that one busy queue cannot starve the others. Each
   * call is atomic, so every instance may sweep at once.
   *
   * @param sweep what to do to each queue
   * @param limit most jobs one call handles
   * @param maxCallsPerQueue most calls on one queue
   */
  public void sweepEveryQueue(Sweep sweep, int limit, int maxCallsPerQueue) {
    for (QueueName queue : queues()) {
      for (int call = 0; call < maxCallsPerQueue; call++) {
        if (sweep(sweep, queue, limit) < limit) {
          break;
        }
      }
    }
  }

  /**
   * Whether a failure only means that Redis could not be reached (it passes: the caller tries again
   * later), rather than that Redis refused a command.
   *
   * @param failure what a store call threw
   * @return true when Redis was unreachable
   */
  public static boolean isUnreachable(RuntimeException failure) {
    return failure instanceof RedisUnavailableException;
  }

  /** Runs one round of a sweep on a queue; returns how many jobs it handled. */
  public long sweep(Sweep sweep, QueueName queue, int limit) {
    Args args = new Args(3).add(now()).add(limit);
    if (sweep.withRandom) {
      args.add(ThreadLocalRandom.current().nextDouble());
    }
    return ScriptReplies.sweep(run(sweep.script, queue, args));
  }

  /**
   * Blocks until one of the queues is woken (a job arrived, a slot freed) or {@code waitMicros}
   * passed.
   *
   * @return whether a wake-up came
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public boolean awaitWake(List<QueueName> queues, long waitMicros) throws InterruptedException {
    return gateway.waiter().await(wakeKeys(queues), waitMicros);
  }

  /**
   * Waits for one consumer that waits on this queue again and again (a worker's fetch loop): its
   * waits share a blocked pop, so one that runs out costs no round trip to Redis ({@link
   * WakeWatch}). The caller closes it when it stops waiting.
   */
  public WakeWatch watchWake(QueueName queue) {
    return new WakeWatch(gateway.waiter(), KeySpace.queueKeys(queue)[KeySpace.WAKE_INDEX]);
  }

  private static byte[][] wakeKeys(List<QueueName> queues) {
    byte[][] wakeKeys = new byte[queues.size()][];
    for (int i = 0; i < wakeKeys.length; i++) {
      wakeKeys[i] = KeySpace.queueKeys(queues.get(i))[KeySpace.WAKE_INDEX];
    }
    return wakeKeys;
  }

  // ---- dead letters ----

  /** A page of dead letters, oldest death first, with their total. */
  public DeadPage deadLetters(QueueName queue, int offset, int count) {
    return ScriptReplies.deadList(
        run(ScriptLibrary.DEAD_LIST, queue, new Args(2).add(offset).add(count)));
  }

  // ---- jobs by state ----

  /**
   * A page of one state's list ({@code jobs_list.lua}): after the entry (cursorScore, cursorId), or
   * from the first when cursorScore is null; filters null or empty when unset.
   *
   * @param scan most entries examined
   */
  public ScriptReplies.JobsListReply jobsList(
      QueueName queue,
      String list,
      boolean descending,
      String cursorScore,
      String cursorId,
      int limit,
      int scan,
      String idPrefix,
      String errorContains,
      Long fromMs,
      Long toMs) {
    Args args =
        new Args(10)
            .add(list)
            .add(descending ? "desc" : "asc")
            .add(cursorScore == null ? "" : cursorScore)
            .add(cursorId == null ? "" : cursorId)
            .add(limit)
            .add(scan)
            .add(idPrefix == null ? "" : idPrefix)
            .add(errorContains == null ? "" : errorContains)
            .add(fromMs == null ? "" : Long.toString(fromMs))
            .add(toMs == null ? "" : Long.toString(toMs));
    return ScriptReplies.jobsList(run(ScriptLibrary.JOBS_LIST, queue, args));
  }

  /**
   * One action on each of these jobs ({@code jobs_act.lua}), checked in its own state.
   *
   * @param action cancel, delete, run_now or respawn
   * @param ttl a respawned job's fresh TTL (null = none)
   * @return one outcome per id, in order
   */
  public List<ScriptReplies.ActOutcome> jobsAct(
      QueueName queue, String action, Duration ttl, List<String> ids) {
    Args args = new Args(3 + ids.size()).add(now()).add(action).add(ttlMillis(ttl));
    ids.forEach(args::add);
    return ScriptReplies.jobsAct(run(ScriptLibrary.JOBS_ACT, queue, args));
  }

  /** Puts these dead jobs back in line with a fresh TTL (null = none). */
  public BatchReply respawn(QueueName queue, List<String> ids, Duration ttl) {
    Args args = new Args(3 + ids.size()).add(now()).add(ttlMillis(ttl)).add("ids");
    ids.forEach(args::add);
    return ScriptReplies.batch(run(ScriptLibrary.RESPAWN, queue, args));
  }

  /** Puts up to {@code count} of the oldest dead jobs back in line. */
  public BatchReply respawnOldest(QueueName queue, long count, Duration ttl) {
    Args args = new Args(4).add(now()).add(ttlMillis(ttl)).add("oldest").add(count);
    return ScriptReplies.batch(run(ScriptLibrary.RESPAWN, queue, args));
  }

  /** Deletes up to {@code limit} dead letters. */
  public BatchReply purgeDead(QueueName queue, int limit) {
    return ScriptReplies.batch(run(ScriptLibrary.PURGE, queue, new Args(2).add(now()).add(limit)));
  }

  // ---- fairness keys (fair queues) ----

  /**
   * Writes one key's own settings ({@code fair_key_write.lua}); -1 values take the queue's.
   *
   * @return the key's jobs held in its park
   */
  public long fairKeyWrite(
      QueueName queue,
      String key,
      int weight,
      int concurrency,
      int rate,
      long ratePeriodMs,
      int maxWaiting,
      boolean paused) {
    Args args =
        new Args(7)
            .add(key)
            .add(weight)
            .add(concurrency)
            .add(rate)
            .add(ratePeriodMs)
            .add(maxWaiting)
            .add(paused ? 1 : 0);
    return Replies.asLong(
        Replies.asList(run(ScriptLibrary.FAIR_KEY_WRITE, queue, args))
            .get(ScriptReplies.FairKeyWrite.PARKED.ordinal()));
  }

  /**
   * Moves up to {@code limit} of a resumed key's parked jobs back to the line ({@code
   * fair_unpark.lua}).
   *
   * @return the jobs still parked
   */
  public long fairUnpark(QueueName queue, String key, int limit) {
    return Replies.asLong(
        Replies.asList(run(ScriptLibrary.FAIR_UNPARK, queue, new Args(2).add(key).add(limit)))
            .get(ScriptReplies.FairUnpark.LEFT.ordinal()));
  }

  // ---- adaptive limits ----

  /**
   * Turns a queue's adaptive limit on or changes it; null turns it off ({@code
   * adaptive_configure.lua}).
   *
   * @return the limit in force; 0 when turned off
   */
  public long adaptiveConfigure(QueueName queue, io.lineup.core.model.AdaptiveSettings settings) {
    Args args = new Args(8).add(now());
    if (settings == null) {
      args.add("");
    } else {
      args.add(settings.min())
          .add(settings.max())
          .add(settings.initial())
          .add(settings.targetLatency().toMillis())
          .add(settings.window().toMillis())
          .add(Double.toString(settings.decrease()))
          .add(settings.holdCap().toMillis());
    }
    return Replies.asLong(
        Replies.asList(run(ScriptLibrary.ADAPTIVE_CONFIGURE, queue, args)).get(0));
  }

  /**
   * Reports one ended call to a queue's adaptive limit ({@code adaptive_report.lua}).
   *
   * @param latencyMs -1 when none was measured
   * @param retryAfterMs -1 when none
   */
  public ScriptReplies.AdaptiveReportReply adaptiveReport(
      QueueName queue, long latencyMs, int status, long retryAfterMs) {
    Args args = new Args(4).add(now()).add(latencyMs).add(status).add(retryAfterMs);
    return ScriptReplies.adaptiveReport(run(ScriptLibrary.ADAPTIVE_REPORT, queue, args));
  }

  /** A queue's adaptive limit as stored ({@code adaptive_read.lua}); empty when it has none. */
  public Optional<ScriptReplies.AdaptiveReadReply> adaptiveRead(QueueName queue) {
    return ScriptReplies.adaptiveRead(
        run(ScriptLibrary.ADAPTIVE_READ, queue, new Args(1).add(now())));
  }

  /** One key's settings and counts ({@code fair_key_read.lua}). */
  public ScriptReplies.FairKeyReply fairKeyRead(QueueName queue, String key) {
    return ScriptReplies.fairKeyRead(run(ScriptLibrary.FAIR_KEY_READ, queue, new Args(1).add(key)));
  }

  /**
   * The keys with most jobs waiting or leased ({@code fair_top.lua}).
   *
   * @param by {@code "waiting"} or {@code "leased"}
   */
  public ScriptReplies.FairTopReply fairTop(QueueName queue, String by, int limit) {
    return ScriptReplies.fairTop(
        run(ScriptLibrary.FAIR_TOP, queue, new Args(2).add(by).add(limit)));
  }

  /** One slice of deleting a key's waiting jobs ({@code fair_drop.lua}). */
  public ScriptReplies.FairDropReply fairDrop(
      QueueName queue, String key, long lineCursor, long delayedCursor, int limit) {
    Args args = new Args(5).add(now()).add(key).add(lineCursor).add(delayedCursor).add(limit);
    return ScriptReplies.fairDrop(run(ScriptLibrary.FAIR_DROP, queue, args));
  }

  private static long ttlMillis(Duration ttl) {
    return ttl == null ? 0 : ttl.toMillis();
  }

  // ---- the queue registry ----

  /** Records a queue in the registry (once per process). */
  public void register(QueueName queue) {
    gateway.register(queue);
  }

  /** Registers the queue without waiting; see {@link RedisGateway#registerWithoutWaiting}. */
  public void registerWithoutWaiting(QueueName queue) {
    gateway.registerWithoutWaiting(queue);
  }

  /**
   * {@code reply} failed with {@link io.lineup.core.model.RedisUnavailableException} when it takes
   * longer than the command timeout plus {@code extra}; see {@link RedisGateway#within}.
   */
  public <T> CompletableFuture<T> within(CompletableFuture<T> reply, Duration extra) {
    return gateway.within(reply, extra);
  }

  /** Whether a queue is in the registry. */
  public boolean isRegistered(QueueName queue) {
    return gateway.isRegistered(queue);
  }

  /** Every registered queue, sorted. */
  public List<QueueName> queues() {
    return gateway.queues().stream().map(QueueName::parse).toList();
  }

  // ---- record collections (server data) ----

  /** Stores or replaces a record of a collection. */
  public void putRecord(String collection, String id, String value) {
    gateway.await(
        gateway.commands().hset(KeySpace.recordCollection(collection), utf8(id), utf8(value)));
  }

  /**
   * Stores or replaces records of a collection in one command (an HSET of every pair) without
   * blocking.
   */
  public CompletableFuture<Void> putRecordsAsync(String collection, Map<String, String> records) {
    Map<byte[], byte[]> fields = new LinkedHashMap<>();
    records.forEach((id, value) -> fields.put(utf8(id), utf8(value)));
    return RedisGateway.translated(
        gateway
            .commands()
            .hset(KeySpace.recordCollection(collection), fields)
            .<Void>thenApply(stored -> null));
  }

  /** Stores a record unless one with this id exists; returns whether it stored. */
  public boolean putRecordIfAbsent(String collection, String id, String value) {
    return Boolean.TRUE.equals(
        gateway.await(
            gateway
                .commands()
                .hsetnx(KeySpace.recordCollection(collection), utf8(id), utf8(value))));
  }

  /** A record of a collection, or empty. */
  public Optional<String> record(String collection, String id) {
    byte[] value =
        gateway.await(gateway.commands().hget(KeySpace.recordCollection(collection), utf8(id)));
    return Optional.ofNullable(value).map(RedisStore::text);
  }

  /**
   * {@link #record} without blocking: fails with {@link
   * io.lineup.core.model.RedisUnavailableException} (as the cause of a {@link
   * java.util.concurrent.CompletionException}) when Redis does not answer within the command
   * timeout, watched by the engine's deadline thread rather than a timer per call.
   */
  public CompletableFuture<Optional<String>> recordAsync(String collection, String id) {
    CompletableFuture<byte[]> reply =
        gateway
            .commands()
            .hget(KeySpace.recordCollection(collection), utf8(id))
            .toCompletableFuture();
    return RedisGateway.translated(
        gateway
            .within(reply, Duration.ZERO)
            .thenApply(value -> Optional.ofNullable(value).map(RedisStore::text)));
  }

  /**
   * Replaces a record only when it holds {@code expected} ({@code replace_record.lua}): a compare
   * and set. A null {@code expected} means the record must be absent; a null {@code value} deletes
   * it. Returns whether it was replaced.
   */
  public boolean replaceRecord(String collection, String id, String expected, String value) {
    Args args =
        new Args(5)
            .add(id)
            .add(expected == null ? "0" : "1")
            .add(expected == null ? "" : expected)
            .add(value == null ? "0" : "1")
            .add(value == null ? "" : value);
    Object reply =
        gateway.run(
            ScriptLibrary.REPLACE_RECORD,
            new byte[][] {KeySpace.recordCollection(collection)},
            args.toArray());
    return ScriptReplies.replaceRecord(reply) == ScriptCode.OK;
  }

  /** Deletes a record; returns whether it existed. */
  public boolean deleteRecord(String collection, String id) {
    Long removed =
        gateway.await(gateway.commands().hdel(KeySpace.recordCollection(collection), utf8(id)));
    return removed != null && removed > 0;
  }

  /**
   * Deletes the whole collection once {@code ttl} has passed without another call of this method (a
   * Redis PEXPIRE on its hash); returns whether the collection exists.
   */
  public boolean expireRecords(String collection, Duration ttl) {
    return Boolean.TRUE.equals(
        gateway.await(
            gateway.commands().pexpire(KeySpace.recordCollection(collection), ttl.toMillis())));
  }

  /** Some records of a collection in one HMGET: the value of each id asked, or null. */
  public List<String> records(String collection, List<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    byte[][] fields = new byte[ids.size()][];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = utf8(ids.get(i));
    }
    List<io.lettuce.core.KeyValue<byte[], byte[]>> values =
        gateway.await(gateway.commands().hmget(KeySpace.recordCollection(collection), fields));
    List<String> found = new ArrayList<>(values.size());
    for (var value : values) {
      found.add(value.hasValue() ? text(value.getValue()) : null);
    }
    return found;
  }

  /** Deletes records of a collection in one HDEL; returns how many existed. */
  public long deleteRecords(String collection, List<String> ids) {
    if (ids.isEmpty()) {
      return 0;
    }
    byte[][] fields = new byte[ids.size()][];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = utf8(ids.get(i));
    }
    Long removed =
        gateway.await(gateway.commands().hdel(KeySpace.recordCollection(collection), fields));
    return removed == null ? 0 : removed;
  }

  /** How many records a collection holds (HLEN). */
  public long recordCount(String collection) {
    Long count = gateway.await(gateway.commands().hlen(KeySpace.recordCollection(collection)));
    return count == null ? 0 : count;
  }

  /**
   * Entries of the queue's leased set (job id, lease deadline in epoch ms as its score) whose
   * deadline is at least {@code fromMs}, in deadline order (ids in byte order within one deadline),
   * skipping {@code offset} of them: one ZRANGEBYSCORE with LIMIT.
   */
  public List<Map.Entry<String, Long>> leasedFrom(
      QueueName queue, long fromMs, int offset, int count) {
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.LEASED_INDEX];
    var entries =
        gateway.await(
            gateway
                .commands()
                .zrangebyscoreWithScores(
                    key,
                    Range.create((double) fromMs, Double.POSITIVE_INFINITY),
                    Limit.create(offset, count)));
    List<Map.Entry<String, Long>> page = new ArrayList<>(entries.size());
    for (var entry : entries) {
      page.add(Map.entry(text(entry.getValue()), (long) entry.getScore()));
    }
    return page;
  }

  /**
   * Entries of the queue's finished set (job id, finish time in epoch ms as its score) whose finish
   * time is at most {@code toMs}, newest first (ids in reverse byte order within one time),
   * skipping {@code offset} of them: one ZREVRANGEBYSCORE with LIMIT.
   */
  public List<Map.Entry<String, Long>> finishedUntil(
      QueueName queue, long toMs, int offset, int count) {
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.FINISHED_INDEX];
    var entries =
        gateway.await(
            gateway
                .commands()
                .zrevrangebyscoreWithScores(
                    key,
                    Range.create(Double.NEGATIVE_INFINITY, (double) toMs),
                    Limit.create(offset, count)));
    List<Map.Entry<String, Long>> page = new ArrayList<>(entries.size());
    for (var entry : entries) {
      page.add(Map.entry(text(entry.getValue()), (long) entry.getScore()));
    }
    return page;
  }

  /**
   * Entries of the queue's ready line (job id, line score) after {@code afterScore} (exclusive;
   * null for the front), in line order: one ZRANGEBYSCORE with LIMIT. Scores are unique per job
   * (they encode priority and arrival), so the score of a page's last entry marks where the next
   * begins.
   */
  public List<Map.Entry<String, Double>> readyAfter(QueueName queue, Double afterScore, int count) {
    byte[] key = KeySpace.queueKeys(queue)[KeySpace.READY_INDEX];
    Range<Double> range =
        afterScore == null
            ? Range.unbounded()
            : Range.from(Range.Boundary.excluding(afterScore), Range.Boundary.unbounded());
    var entries =
        gateway.await(
            gateway.commands().zrangebyscoreWithScores(key, range, Limit.create(0, count)));
    List<Map.Entry<String, Double>> page = new ArrayList<>(entries.size());
    for (var entry : entries) {
      page.add(Map.entry(text(entry.getValue()), entry.getScore()));
    }
    return page;
  }

  /** Every record of a collection, sorted by id. */
  public Map<String, String> records(String collection) {
    Map<byte[], byte[]> raw =
        gateway.await(gateway.commands().hgetall(KeySpace.recordCollection(collection)));
    Map<String, String> sorted = new TreeMap<>();
    raw.forEach((k, v) -> sorted.put(text(k), text(v)));
    return new LinkedHashMap<>(sorted);
  }

  // ---- the archive outbox (lib/archive.lua writes it) ----

  private static final byte[] ARCHIVE_MAX = utf8("archive_max");
  private static final byte[] ARCHIVE_DROPPED = utf8("n_archive_dropped");

  /** Sets the queue's outbox bound (0 switches archiving off). */
  public void setArchiveMax(QueueName queue, long max) {
    byte[] meta = KeySpace.queueKeys(queue)[KeySpace.META_INDEX];
    if (max <= 0) {
      gateway.await(gateway.commands().hdel(meta, ARCHIVE_MAX));
    } else {
      gateway.await(gateway.commands().hset(meta, ARCHIVE_MAX, utf8(Long.toString(max))));
    }
  }

  /** The queue's outbox bound, 0 when archiving is off. */
  public long archiveMax(QueueName queue) {
    return longOrZero(
        gateway.await(
            gateway.commands().hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], ARCHIVE_MAX)));
  }

  /** Ends that found the outbox full, ever. */
  public long outboxDropped(QueueName queue) {
    return longOrZero(
        gateway.await(
            gateway
                .commands()
                .hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], ARCHIVE_DROPPED)));
  }

  /** Creates the consumer group (and the stream) unless it exists. */
  public void createOutboxGroup(QueueName queue, String group) {
    try {
      gateway.await(
          gateway
              .commands()
              .xgroupCreate(
                  XReadArgs.StreamOffset.from(outboxKey(queue), "0"),
                  utf8(group),
                  XGroupCreateArgs.Builder.mkstream()));
    } catch (RuntimeException e) {
      if (!String.valueOf(e.getMessage()).contains("BUSYGROUP")) {
        throw e;
      }
    }
  }

  /** New entries for the consumer ({@code >}), or its own pending ones ({@code 0}). */
  public List<OutboxEntry> readOutbox(
      QueueName queue, String group, String consumer, int count, boolean ownPending) {
    byte[] key = outboxKey(queue);
    List<StreamMessage<byte[], byte[]>> messages =
        gateway.await(
            gateway
                .commands()
                .xreadgroup(
                    Consumer.from(utf8(group), utf8(consumer)),
                    XReadArgs.Builder.count(count),
                    ownPending
                        ? XReadArgs.StreamOffset.from(key, "0")
                        : XReadArgs.StreamOffset.lastConsumed(key)));
    return OutboxEntries.of(queue, messages);
  }

  /** Entries pending for any consumer for at least minIdle, now pending for this consumer. */
  public List<OutboxEntry> claimOutbox(
      QueueName queue, String group, String consumer, Duration minIdle, int count) {
    ClaimedMessages<byte[], byte[]> claimed =
        gateway.await(
            gateway
                .commands()
                .xautoclaim(
                    outboxKey(queue),
                    XAutoClaimArgs.Builder.xautoclaim(
                            Consumer.from(utf8(group), utf8(consumer)), minIdle, "0-0")
                        .count(count)));
    return OutboxEntries.of(queue, claimed.getMessages());
  }

  /**
   * Acknowledges and deletes entries, given with the number of jobs each holds ({@code
   * outbox_ack.lua}); returns how many jobs the entries it deleted held.
   */
  public long ackOutbox(QueueName queue, String group, Map<String, Integer> jobsByEntry) {
    Args args = new Args(1 + 2 * jobsByEntry.size()).add(group);
    jobsByEntry.forEach((entryId, jobs) -> args.add(entryId).add(jobs));
    return ScriptReplies.sweep(run(ScriptLibrary.OUTBOX_ACK, queue, args));
  }

  private static final byte[] OUTBOX_JOBS = utf8("outbox_jobs");

  /** Jobs in the outbox (meta's outbox_jobs, which lib/archive.lua and outbox_ack.lua keep). */
  public long outboxLength(QueueName queue) {
    return longOrZero(
        gateway.await(
            gateway.commands().hget(KeySpace.queueKeys(queue)[KeySpace.META_INDEX], OUTBOX_JOBS)));
  }

  /** Stream entries in the outbox. */
  public long outboxEntries(QueueName queue) {
    Long length = gateway.await(gateway.commands().xlen(outboxKey(queue)));
    return length == null ? 0 : length;
  }

  /** When the oldest entry was added (its stream id's time), or empty. */
  public Optional<Instant> oldestOutboxEntry(QueueName queue) {
    List<StreamMessage<byte[], byte[]>> first =
        gateway.await(
            gateway.commands().xrange(outboxKey(queue), Range.unbounded(), Limit.from(1)));
    if (first == null || first.isEmpty()) {
      return Optional.empty();
    }
    String id = first.get(0).getId();
    return Optional.of(Instant.ofEpochMilli(Long.parseLong(id.substring(0, id.indexOf('-')))));
  }

  /** SET NX PX: whether the holder took the lock. */
  public boolean tryLock(String name, String holder, Duration ttl) {
    String reply =
        gateway.await(
            gateway
                .commands()
                .set(KeySpace.lock(name), utf8(holder), SetArgs.Builder.nx().px(ttl.toMillis())));
    return "OK".equals(reply);
  }

  private static byte[] outboxKey(QueueName queue) {
    return KeySpace.queueKeys(queue)[KeySpace.OUTBOX_INDEX];
  }

  private static long longOrZero(byte[] value) {
    return value == null ? 0 : Long.parseLong(text(value));
  }

  // ---- the server ----

  /** One round trip to Redis; returns how long it took. */
  public Duration ping() {
    return gateway.ping();
  }

  /** The server's version, mode and the settings that decide whether jobs can be lost. */
  public RedisServerInfo info() {
    return gateway.info();
  }

  /** Closes the connections. */
  @Override
  public void close() {
    gateway.close();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
