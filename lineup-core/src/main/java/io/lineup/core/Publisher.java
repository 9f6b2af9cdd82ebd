package io.lineup.core;

import io.lineup.api.JobIds;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies.StatsReply;
import io.lineup.core.model.DeadlineUnreachableException;
import io.lineup.core.model.Durability;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.FairnessKey;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.core.model.ReplicationTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Checks and publishes jobs. A batch is one script call; concurrent publishes to one queue may
 * share a call ({@link CallCoalescer}). A durable publish ({@link Durability}) goes through the
 * connection of durable publishes and is answered after Redis's {@code WAIT} on it, a step of its
 * own after the script.
 */
final class Publisher {
  private final Engine engine;

  /** Runs what follows the read of a queue's setting, off Redis's I/O threads. */
  private static final Executor AFTER_READ =
      task -> Thread.ofVirtual().name("lineup-durable-publish").start(task);

  /** The fence argument of a publish bound to none (fences are never negative). */
  static final long NO_FENCE = RedisStore.NO_FENCE;

  /**
   * A queue and the fence a publish expects it to hold ({@link #NO_FENCE}: none): publishes are
   * combined only with publishes that expect the same fence, so that a refused fence fails only the
   * requests bound to it.
   */
  private record Fenced(QueueName queue, long fence) {}

  private final CallCoalescer<Fenced, NewJob, PublishResult> coalescer;
  private final CallCoalescer<Fenced, NewJob, PublishResult> forReplicas;
  private final DurabilityDefaults defaults;

  Publisher(Engine engine) {
    this.engine = engine;
    this.coalescer =
        CallCoalescer.of(
            engine.options(), (k, jobs) -> engine.store().publish(k.queue(), jobs, k.fence()));
    this.forReplicas =
        CallCoalescer.of(
            engine.options(),
            (k, jobs) -> engine.store().publishForReplicas(k.queue(), jobs, k.fence()));
    this.defaults = new DurabilityDefaults(engine.store());
  }

  /**
   * Publishes and waits for the answer: within the command timeout, plus the replicas' timeout when
   * the publish waits for replicas.
   *
   * @param durability null: the queue's {@code durableReplicas}
   */
  List<PublishResult> publish(QueueName queue, List<NewJob> jobs, Durability durability) {
    return publish(queue, jobs, durability, NO_FENCE);
  }

  /**
   * {@link #publish(QueueName, List, Durability)} bound to a fence.
   *
   * @param fence the fence the queue must hold, or {@link #NO_FENCE}
   * @throws io.lineup.core.model.FenceMismatchException when the queue holds another fence or none
   */
  List<PublishResult> publish(
      QueueName queue, List<NewJob> jobs, Durability durability, long fence) {
    CompletableFuture<List<PublishResult>> answer = publishAsync(queue, jobs, durability, fence);
    boolean noWait = durability == null ? defaults.knownNone(queue) : durability.replicas() == 0;
    if (noWait) {
      return engine.store().await(answer);
    }
    Duration replicasWait = durability == null ? Durability.DEFAULT_TIMEOUT : durability.timeout();
    return engine.store().awaitLonger(answer, replicasWait);
  }

  /**
   * Checks at once (throwing {@link InvalidArgumentException}) and sends without blocking; the
   * future completes with the results or the engine's exception ({@link
   * ReplicationTimeoutException} when too few replicas acknowledged).
   *
   * @param durability null: the queue's {@code durableReplicas}
   */
  CompletableFuture<List<PublishResult>> publishAsync(
      QueueName queue, List<NewJob> jobs, Durability durability) {
    return publishAsync(queue, jobs, durability, NO_FENCE);
  }

  /**
   * {@link #publishAsync(QueueName, List, Durability)} bound to a fence: the future fails with
   * {@link io.lineup.core.model.FenceMismatchException} when the queue holds another fence or none.
   *
   * @param fence the fence the queue must hold, or {@link #NO_FENCE}
   */
  CompletableFuture<List<PublishResult>> publishAsync(
      QueueName queue, List<NewJob> jobs, Durability durability, long fence) {
    ObservationSettings observation = engine.options().observation();
    if (!observation.enabled()) {
      return unobserved(queue, jobs, durability, fence);
    }
    return PublishObservation.around(
        observation, queue, jobs, () -> unobserved(queue, jobs, durability, fence));
  }

  private CompletableFuture<List<PublishResult>> unobserved(
      QueueName queue, List<NewJob> jobs, Durability durability, long fence) {
    long payloadBytes = check(jobs);
    deadlines(queue, jobs);
    // Not waited for: the publish follows it on the same connection, and this must not block.
    engine.store().registerWithoutWaiting(queue);
    if (durability != null) {
      return send(queue, jobs, payloadBytes, durability, fence);
    }
    return defaults.inOrder(
        queue, n -> send(queue, jobs, payloadBytes, Durability.replicas(n), fence), AFTER_READ);
  }

  /**
   * {@link #publishAsync} bounded in time as {@link #publish} waits: the future fails with {@link
   * RedisUnavailableException} (as the cause) when Redis does not answer within the command
   * timeout, plus the replicas' timeout when the publish waits for replicas. Never blocks.
   *
   * @param durability null: the queue's {@code durableReplicas}
   */
  CompletableFuture<List<PublishResult>> publishWithin(
      QueueName queue, List<NewJob> jobs, Durability durability) {
    CompletableFuture<List<PublishResult>> answer = publishAsync(queue, jobs, durability);
    boolean noWait = durability == null ? defaults.knownNone(queue) : durability.replicas() == 0;
    Duration extra =
        noWait
            ? Duration.ZERO
            : durability == null ? Durability.DEFAULT_TIMEOUT : durability.timeout();
    return engine.store().within(answer, extra);
  }

  /** Forgets what is known of the queue's settings after this engine changed them. */
  void settingsChanged(QueueName queue) {
    defaults.forget(queue);
  }

  private CompletableFuture<List<PublishResult>> send(
      QueueName queue, List<NewJob> jobs, long payloadBytes, Durability durability, long fence) {
    Fenced key = new Fenced(queue, fence);
    if (durability.replicas() == 0) {
      return coalescer.submit(key, jobs, payloadBytes);
    }
    return forReplicas
        .submit(key, jobs, payloadBytes)
        .thenCompose(results ->
            engine
                .store()
                .awaitReplicas(queue, durability.replicas(), durability.timeout())
                .thenApply(acknowledged -> {
                  String missing = null;
                  if (acknowledged.replicas() < durability.replicas()) {
                    missing =
                        "only "
                            + acknowledged.replicas()
                            + " of "
                            + durability.replicas()
                            + " replicas acknowledged them";
                  } else if (!acknowledged.onDisk()) {
                    missing = "the master did not confirm writing them to its append-only file";
                  }
                  if (missing != null) {
                    throw new CompletionException(
                        new ReplicationTimeoutException(
                            results,
                            durability.replicas(),
                            acknowledged.replicas(),
                            durability.timeout(),
                            missing));
                  }
                  return results;
                }));
  }

  /** Checks every job before anything is sent; returns their payload bytes. */
  /**
   * Checks the start-by times of a batch against one reading of the queue's ETA (read only when a
   * job has one, so a publish without costs no call) and gives each accepted job the time left
   * until its start-by time as its TTL. Each job of the batch is taken at the back of the ready
   * line, behind the ones before it.
   *
   * @throws DeadlineUnreachableException for the first job whose start-by time cannot be met;
   *     nothing of the batch is written then
   */
  private void deadlines(QueueName queue, List<NewJob> jobs) {
    boolean any = false;
    for (NewJob job : jobs) {
      any |= job.startBy() != null;
    }
    if (!any) {
      return;
    }
    StatsReply reading = engine.store().stats(queue);
    EtaEstimator estimator = Inspector.estimatorOf(reading);
    long now = reading.readAt().toEpochMilli();
    long[] left = new long[jobs.size()];
    for (int i = 0; i < jobs.size(); i++) {
      NewJob job = jobs.get(i);
      if (job.startBy() == null) {
        continue;
      }
      long startBy = job.startBy().toEpochMilli();
      long dueIn =
          job.delay() != null
              ? job.delay().toMillis()
              : job.runAt() != null ? Math.max(0, job.runAt().toEpochMilli() - now) : 0;
      long high = estimator.eta(reading.ready() + i).map(e -> e.high().toMillis()).orElse(0L);
      long earliest = now + Math.max(dueIn, high);
      if (startBy <= now || earliest > startBy) {
        throw new DeadlineUnreachableException(
            i, job.startBy(), Instant.ofEpochMilli(Math.max(earliest, now)));
      }
      left[i] = startBy - now;
    }
    for (int i = 0; i < jobs.size(); i++) {
      NewJob job = jobs.get(i);
      if (job.startBy() != null && (job.ttl() == null || job.ttl().toMillis() > left[i])) {
        job.ttl(Duration.ofMillis(Math.min(left[i], Limits.MAX_TTL_MS)));
      }
    }
  }

  private long check(List<NewJob> jobs) {
    if (jobs == null || jobs.isEmpty()) {
      throw new InvalidArgumentException("jobs", "at least one job is needed");
    }
    if (jobs.size() > Limits.MAX_BATCH) {
      throw new InvalidArgumentException(
          "jobs", "at most " + Limits.MAX_BATCH + " jobs per call, got " + jobs.size());
    }
    // Check everything before the first write, so a bad job leaves Redis untouched.
    long payloadBytes = 0;
    for (NewJob job : jobs) {
      check(job);
      payloadBytes += job.payload().length;
    }
    return payloadBytes;
  }

  private void check(NewJob job) {
    if (job == null) {
      throw new InvalidArgumentException("jobs", "a job must not be null");
    }
    int max = engine.options().maxPayloadBytes();
    if (job.payload().length > max) {
      throw new PayloadTooLargeException("payload", max, job.payload().length);
    }
    if (job.id() != null) {
      if (!JobIds.isCallerId(job.id())) {
        throw new InvalidArgumentException("id", JobIds.CALLER_ID_RULE);
      }
    }
    if (job.priority() < Limits.MIN_PRIORITY || job.priority() > Limits.MAX_PRIORITY) {
      throw new InvalidArgumentException(
          "priority",
          "must be between "
              + Limits.MIN_PRIORITY
              + " and "
              + Limits.MAX_PRIORITY
              + ", got "
              + job.priority());
    }
    if (job.delay() != null && job.runAt() != null) {
      throw new InvalidArgumentException("delay", "give a delay or a run-at time, not both");
    }
    Checks.duration("delay", job.delay(), 0, Limits.MAX_DELAY_MS);
    if (job.runAt() != null
        && (job.runAt().isBefore(java.time.Instant.EPOCH)
            || job.runAt()
                .isAfter(engine.options().hostClock().instant().plusMillis(Limits.MAX_DELAY_MS)))) {
      throw new InvalidArgumentException("runAt", "must be between 1970 and ten years from now");
    }
    if (job.maxAttempts() != null
        && (job.maxAttempts() < 1 || job.maxAttempts() > Limits.MAX_ATTEMPTS)) {
      throw new InvalidArgumentException(
          "maxAttempts",
          "must be between 1 and " + Limits.MAX_ATTEMPTS + ", got " + job.maxAttempts());
    }
    Checks.duration("timeToRun", job.timeToRun(), Limits.MIN_TTR_MS, Limits.MAX_TTR_MS);
    Checks.duration("ttl", job.ttl(), 1, Limits.MAX_TTL_MS);
    if (job.key() != null) {
      FairnessKey.check("key", job.key());
    }
    // Throws InvalidArgumentException when the trace context breaks the W3C form.
    job.traceContext();
    if (job.uniqueKey() != null) {
      int bytes = job.uniqueKey().getBytes(StandardCharsets.UTF_8).length;
      if (bytes == 0
          || bytes > Limits.MAX_UNIQUE_KEY_BYTES
          || job.uniqueKey().chars().anyMatch(Character::isISOControl)) {
        throw new InvalidArgumentException(
            "uniqueKey",
            "must be 1 to " + Limits.MAX_UNIQUE_KEY_BYTES + " bytes without control characters");
      }
      if (job.uniqueWindow() == null) {
        throw new InvalidArgumentException("uniqueWindow", "is required with a unique key");
      }
      Checks.duration("uniqueWindow", job.uniqueWindow(), 1, Limits.MAX_UNIQUE_WINDOW_MS);
    }
  }
}
