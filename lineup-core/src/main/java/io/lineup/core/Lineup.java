package io.lineup.core;

import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.internal.maintenance.Maintenance;
import io.lineup.core.internal.store.RedisGateway;
import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptCode;
import io.lineup.core.model.AckOutcome;
import io.lineup.core.model.AckRequest;
import io.lineup.core.model.CountMismatchException;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.Durability;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobAction;
import io.lineup.core.model.JobActionResult;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobListPage;
import io.lineup.core.model.JobListQuery;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.Limits;
import io.lineup.core.model.LineupException;
import io.lineup.core.model.NackResult;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueEvent;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RateSlot;
import io.lineup.core.model.RedisServerInfo;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.core.model.ReplicationTimeoutException;
import io.lineup.core.model.SettingsCodec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The Lineup engine: publish, lease, settle and inspect jobs of Redis-backed queues.
 *
 * <p>Thread-safe; one instance per process is enough (calls are pipelined on one connection, and
 * blocking waits borrow their own). Every state change is one Lua script call, so no job is lost
 * between steps. Every method may throw {@link RedisUnavailableException} when Redis cannot be
 * reached; the engine reconnects by itself.
 *
 * <pre>{@code
 * try (Lineup lineup = Lineup.connect(LineupOptions.builder("redis://127.0.0.1:6379").build())) {
 *   QueueName orders = QueueName.of("shop", "close-unpaid");
 *   lineup.publish(orders, NewJob.ofText("{\"order\":42}").delay(Duration.ofMinutes(30)));
 *   try (Worker worker = lineup.worker(orders, job -> closeOrder(job.payloadText()), WorkerOptions.defaults())) {
 *     worker.start();
 *     ...
 *   }
 * }
 * }</pre>
 */
public final class Lineup implements AutoCloseable {
  private final Engine engine;
  private final Publisher publisher;
  private final Leaser leaser;
  private final Inspector inspector;
  private final DeadLetters deadLetters;
  private final JobLists jobLists;
  private final Maintenance maintenance;
  private final ArchiveOutbox archiveOutbox;
  private final RecordWrites recordWrites;
  private final ScheduleEngine scheduleEngine;
  private final Schedules schedules;
  private final Fairness fairness;
  private final AdaptiveLimits adaptiveLimits;

  /** The engine's latency listener as the store takes it: a plain callback, or none. */
  private static BiConsumer<String, Duration> latencyListener(LineupOptions options) {
    CommandLatencyListener listener = options.latencyListener();
    return listener == null ? null : listener::record;
  }

  private Lineup(LineupOptions options) {
    RedisGateway gateway =
        new RedisGateway(
            options.redisUri(),
            options.commandTimeout(),
            options.maxWaitingConnections(),
            latencyListener(options));
    RedisStore store = new RedisStore(gateway, options.timeSource()::scriptArgument);
    this.engine = new Engine(store, options);
    this.publisher = new Publisher(engine);
    this.leaser = new Leaser(engine);
    this.inspector = new Inspector(engine);
    this.deadLetters = new DeadLetters(engine);
    this.jobLists = new JobLists(engine);
    this.archiveOutbox = new ArchiveOutbox(store);
    this.recordWrites = new RecordWrites(store, options);
    this.scheduleEngine = new ScheduleEngine(engine);
    this.schedules = new Schedules(scheduleEngine);
    this.fairness = new Fairness(store);
    this.adaptiveLimits = new AdaptiveLimits(store);
    this.maintenance =
        options.maintenance() ? new Maintenance(store, options.maintenanceInterval()) : null;
    if (maintenance != null) {
      maintenance.start();
    }
  }

  /**
   * Connects to Redis and starts the background loops (unless turned off in the options).
   *
   * @throws RedisUnavailableException when Redis cannot be reached
   */
  public static Lineup connect(LineupOptions options) {
    return new Lineup(options);
  }

  /** The options this engine runs with. */
  public LineupOptions options() {
    return engine.options();
  }

  // ---- producers ----

  /**
   * Publishes one job. Publishes to one queue that arrive while earlier ones are in flight share a
   * script call (see {@link LineupOptions#callsInFlightPerQueue()}); each gets its own result. When
   * the queue's {@code durableReplicas} is set, it is answered once that many replicas hold the job
   * (see {@link #publish(QueueName, NewJob, Durability)}).
   *
   * @throws InvalidArgumentException when an option is out of range (nothing is written)
   * @throws io.lineup.core.model.DeadlineUnreachableException when the job's {@link NewJob#startBy
   *     start-by time} cannot be met by the queue's ETA (nothing is written)
   * @throws ReplicationTimeoutException when the queue asks for replicas and fewer acknowledged in
   *     time (the job WAS written)
   */
  public PublishResult publish(QueueName queue, NewJob job) {
    return publisher.publish(queue, List.of(job), null).get(0);
  }

  /**
   * Publishes one job and answers once {@code durability}'s replicas hold it (Redis {@code WAIT}),
   * whatever the queue's {@code durableReplicas}; {@link Durability#NONE} answers at once.
   *
   * @throws InvalidArgumentException when an option is out of range (nothing is written)
   * @throws ReplicationTimeoutException when fewer replicas acknowledged within the timeout: the
   *     job WAS written and will be delivered
   */
  public PublishResult publish(QueueName queue, NewJob job, Durability durability) {
    return publisher.publish(queue, List.of(job), requireDurability(durability)).get(0);
  }

  /**
   * Publishes up to {@value Limits#MAX_BATCH} jobs in one round trip (maybe sharing it with other
   * publishes to the queue), each atomically; results are in the same order.
   *
   * @throws InvalidArgumentException when any job is invalid (nothing is written)
   */
  public List<PublishResult> publishAll(QueueName queue, List<NewJob> jobs) {
    return publisher.publish(queue, jobs, null);
  }

  /**
   * {@link #publishAll} answered once {@code durability}'s replicas hold the jobs; see {@link
   * #publish(QueueName, NewJob, Durability)}.
   *
   * @throws InvalidArgumentException when any job is invalid (nothing is written)
   * @throws ReplicationTimeoutException when fewer replicas acknowledged within the timeout: the
   *     jobs WERE written ({@link ReplicationTimeoutException#results()} has their ids)
   */
  public List<PublishResult> publishAll(QueueName queue, List<NewJob> jobs, Durability durability) {
    return publisher.publish(queue, jobs, requireDurability(durability));
  }

  /**
   * {@link #publish(QueueName, NewJob)} bound to a fence: the job is written only while the queue
   * holds fence {@code fence} ({@link #setFence}), checked in the same script call as the write, so
   * no {@link #setFence} can fall between the check and the write. Publishes bound to the same
   * fence share script calls as unbound ones do; other publishes never share theirs.
   *
   * @param fence the fence the queue must hold (non-negative)
   * @throws FenceMismatchException when the queue holds another fence or none (nothing is written;
   *     the exception names the queue's fence)
   * @throws InvalidArgumentException when an option is out of range or the fence is negative
   *     (nothing is written)
   * @throws ReplicationTimeoutException as {@link #publish(QueueName, NewJob)}
   */
  public PublishResult publishFenced(QueueName queue, NewJob job, long fence) {
    return publisher.publish(queue, List.of(job), null, requireFence(fence)).get(0);
  }

  /**
   * {@link #publishAll(QueueName, List)} bound to a fence (see {@link #publishFenced}): all the
   * jobs or, when the queue holds another fence or none, none of them.
   *
   * @param fence the fence the queue must hold (non-negative)
   * @throws FenceMismatchException when the queue holds another fence or none (nothing is written)
   * @throws InvalidArgumentException when any job is invalid or the fence is negative (nothing is
   *     written)
   * @throws ReplicationTimeoutException as {@link #publish(QueueName, NewJob)}
   */
  public List<PublishResult> publishAllFenced(QueueName queue, List<NewJob> jobs, long fence) {
    return publisher.publish(queue, jobs, null, requireFence(fence));
  }

  /**
   * Sets the queue's fence: from now on a publish bound to another fence writes nothing ({@link
   * #publishFenced}). One Redis command in the queue's slot, so atomic with every publish; a
   * publish bound to no fence is not affected.
   *
   * @param fence non-negative
   * @throws InvalidArgumentException when the fence is negative
   */
  public void setFence(QueueName queue, long fence) {
    engine.store().setFence(queue, requireFence(fence));
  }

  /**
   * Sets the queue's fence only when it has none yet (atomic, {@code HSETNX}): for an owner that
   * adopts a queue made before it used fences, without undoing a fence another owner set meanwhile.
   *
   * @param fence non-negative
   * @return whether the fence was set (false: the queue holds a fence already, unchanged)
   * @throws InvalidArgumentException when the fence is negative
   */
  public boolean setFenceIfAbsent(QueueName queue, long fence) {
    return engine.store().setFenceIfAbsent(queue, requireFence(fence));
  }

  /** The queue's fence, empty when none was ever set. */
  public OptionalLong fence(QueueName queue) {
    return engine.store().fence(queue);
  }

  private static long requireFence(long fence) {
    if (fence < 0) {
      throw new InvalidArgumentException("fence", "must be 0 or more, got " + fence);
    }
    return fence;
  }

  private static Durability requireDurability(Durability durability) {
    if (durability == null) {
      throw new InvalidArgumentException("durability", "must not be null; use Durability.NONE");
    }
    return durability;
  }

  /**
   * Publishes one job without blocking the calling thread: many can be in flight on the one
   * connection. Arguments are checked before anything is sent ({@link InvalidArgumentException} is
   * thrown at once); the future fails with {@link RedisUnavailableException} or {@link
   * LineupException} as the cause of a {@link java.util.concurrent.CompletionException}. It has no
   * deadline of its own: it completes when Redis answers or the connection fails ({@link
   * #publishAllBounded} adds one).
   */
  public CompletableFuture<PublishResult> publishAsync(QueueName queue, NewJob job) {
    return publisher.publishAsync(queue, List.of(job), null).thenApply(results -> results.get(0));
  }

  /** {@link #publishAll} without blocking; see {@link #publishAsync}. */
  public CompletableFuture<List<PublishResult>> publishAllAsync(
      QueueName queue, List<NewJob> jobs) {
    return publisher.publishAsync(queue, jobs, null);
  }

  /**
   * {@link #publishAllAsync(QueueName, List)} bounded in time as {@link #publishAll} waits: the
   * future also fails with {@link RedisUnavailableException} (as the cause) when Redis does not
   * answer within the command timeout, plus {@link Durability#DEFAULT_TIMEOUT} when the queue's
   * publishes wait for replicas; the jobs may still be written after that. For callers that must
   * neither block nor wait without end, such as a server answering requests on an event loop. Never
   * blocks; no timer is made per call when the publish waits for no replicas.
   *
   * @throws InvalidArgumentException when any job is invalid (nothing is written)
   */
  public CompletableFuture<List<PublishResult>> publishAllBounded(
      QueueName queue, List<NewJob> jobs) {
    return publisher.publishWithin(queue, jobs, null);
  }

  /**
   * {@link #publishAll(QueueName, List, Durability)} without blocking; the future fails with {@link
   * ReplicationTimeoutException} (as the cause) when too few replicas acknowledged.
   */
  public CompletableFuture<List<PublishResult>> publishAllAsync(
      QueueName queue, List<NewJob> jobs, Durability durability) {
    return publisher.publishAsync(queue, jobs, requireDurability(durability));
  }

  // ---- consumers ----

  /**
   * Leases up to {@code count} jobs from {@code queue}, waiting up to {@code wait} for the first.
   *
   * @throws InvalidArgumentException when count is outside 1..{@value Limits#MAX_BATCH} or the wait
   *     over {@link Limits#MAX_WAIT_MS}
   */
  public Leases lease(QueueName queue, int count, Duration wait) {
    return leaser.lease(List.of(queue), count, wait);
  }

  /**
   * Leases up to {@code count} jobs from the first of {@code queues} (in the order given) that has
   * any, waiting up to {@code wait}.
   */
  public Leases lease(List<QueueName> queues, int count, Duration wait) {
    return leaser.lease(queues, count, wait);
  }

  /** Acknowledges a leased job. See {@link #ack(QueueName, String, String, byte[])}. */
  public void ack(LeasedJob job) {
    ack(job.queue(), job.id(), job.token(), null);
  }

  /** Acknowledges a leased job, keeping {@code result} for the retention window. */
  public void ack(LeasedJob job, byte[] result) {
    ack(job.queue(), job.id(), job.token(), result);
  }

  /**
   * Acknowledges a job under its lease token. Repeating the ack of the same lease succeeds. Acks to
   * one queue that arrive while earlier ones are in flight share a script call; each gets its own
   * outcome.
   *
   * @throws LeaseLostException when the token no longer holds the job (lease expired, leased again,
   *     cancelled, TTL passed)
   * @throws JobNotFoundException when the job is unknown
   */
  public void ack(QueueName queue, String id, String token, byte[] result) {
    leaser.ack(queue, id, token, result);
  }

  /**
   * Acknowledges several leased jobs of one queue in one script call (with other acks to the queue
   * that arrive meanwhile). Each ack holds or fails on its own, as {@link #ack(QueueName, String,
   * String, byte[])} would: a lost lease fails only its own ack.
   *
   * @param acks at most {@link Limits#MAX_BATCH}; an empty list makes no call
   * @return one outcome per ack, in order
   * @throws InvalidArgumentException when there are more than {@link Limits#MAX_BATCH} acks, or an
   *     id or token is malformed (then none is acknowledged)
   * @throws PayloadTooLargeException when a result is over {@link Limits#MAX_RESULT_BYTES} (then
   *     none is acknowledged)
   */
  public List<AckOutcome> ackAll(QueueName queue, List<AckRequest> acks) {
    return leaser.ackAll(queue, acks);
  }

  /**
   * Acknowledges leased jobs of a queue and leases more from it, in one script call: what a
   * consumer does after finishing a batch, in one round trip instead of two. The acks are settled
   * first, each holding or failing on its own as in {@link #ackAll}; when that call leases no job,
   * it then waits up to {@code wait} for one as {@link #lease(QueueName, int, Duration)} does.
   *
   * @param acks at most {@link Limits#MAX_BATCH}; may be empty
   * @param count most jobs leased, 1 to {@link Limits#MAX_BATCH}
   * @param wait longest wait for a job, up to {@link Limits#MAX_WAIT_MS} ms; zero or null for none
   * @return one outcome per ack, in order, and the jobs leased
   * @throws InvalidArgumentException as {@link #ackAll} and {@link #lease(QueueName, int,
   *     Duration)} (then nothing is acknowledged or leased)
   * @throws PayloadTooLargeException when a result is over {@link Limits#MAX_RESULT_BYTES} (then
   *     nothing is acknowledged or leased)
   */
  public AcksThenLeases ackThenLease(
      QueueName queue, List<AckRequest> acks, int count, Duration wait) {
    return leaser.ackThenLease(queue, acks, count, wait);
  }

  /** A leased job failed: retry after the queue's backoff, or dead letters when out of attempts. */
  public NackResult nack(LeasedJob job, String error) {
    return leaser.nack(job.queue(), job.id(), job.token(), error, null);
  }

  /**
   * A leased job failed: retry after {@code retryDelay} (null = the queue's backoff), or dead
   * letters when out of attempts.
   *
   * @throws LeaseLostException when the token no longer holds the job
   */
  public NackResult nack(
      QueueName queue, String id, String token, String error, Duration retryDelay) {
    return leaser.nack(queue, id, token, error, retryDelay);
  }

  /**
   * Gives a leased job back unused: it returns to the place in line it was leased from, and the
   * attempt is not counted. For a consumer that took a job it cannot start (shutting down, its
   * client went away).
   *
   * @throws LeaseLostException when the token no longer holds the job
   */
  public void release(LeasedJob job) {
    leaser.release(job.queue(), job.id(), job.token());
  }

  /** {@link #release(LeasedJob)} by queue, id and token. */
  public void release(QueueName queue, String id, String token) {
    leaser.release(queue, id, token);
  }

  /** Extends a lease by the job's time-to-run from now; returns the new deadline. */
  public java.time.Instant extend(LeasedJob job) {
    return leaser.extend(job.queue(), job.id(), job.token(), null);
  }

  /**
   * Extends a lease to {@code timeToRun} from now (null = the job's time-to-run).
   *
   * @throws LeaseLostException when the token no longer holds the job
   */
  public java.time.Instant extend(QueueName queue, String id, String token, Duration timeToRun) {
    return leaser.extend(queue, id, token, timeToRun);
  }

  /**
   * Takes a leased job's slot of its queue's rate limit at the moment its work starts, for work
   * that must hold the rate as it starts and not only as it is leased (a request to an upstream
   * that a busy process sends a moment after its lease). The lease already counted the job in the
   * queue's rate log; this moves its entry to now when the rate period ending now holds fewer than
   * the limit other leases and starts, across all instances, so that the starts of the jobs that
   * call it are at most the limit in any sliding period. A start more than a period after its lease
   * takes a fresh slot on the same terms. On a queue without a rate limit the slot is always taken.
   * One Redis call; the clock is the engine's ({@link LineupOptions#timeSource}).
   *
   * @return taken, or not taken with the time to wait before asking again
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public RateSlot takeRateSlot(LeasedJob job) {
    var reply = engine.store().rateSlot(job.queue(), job.id(), job.attempt());
    return new RateSlot(reply.retryAfter().isZero(), reply.now(), reply.retryAfter());
  }

  /**
   * {@link #takeRateSlot} until the slot is taken, sleeping the answered waits between.
   *
   * @return when the slot was taken, by the engine's clock
   * @throws InterruptedException when the thread is interrupted while it waits (no slot taken)
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public Instant awaitRateSlot(LeasedJob job) throws InterruptedException {
    while (true) {
      RateSlot slot = takeRateSlot(job);
      if (slot.taken()) {
        return slot.at();
      }
      Thread.sleep(slot.retryAfter());
    }
  }

  /**
   * Cancels a job in any unfinished state (delayed, ready, leased, dead).
   *
   * @return the state it had
   * @throws JobNotFoundException when the job is unknown
   * @throws LineupException when it has already finished
   */
  public JobState cancel(QueueName queue, String id) {
    return leaser.cancel(queue, id);
  }

  /**
   * Shortens how long a finished job's record is kept (done, cancelled, or expired by its TTL): the
   * retention sweep then drops it once {@code grace} has passed from now (give or take the sweep's
   * 5 s interval), instead of at the end of the queue's retention window. A record already due to
   * go sooner keeps its time. A job that has not finished (waiting, leased, dead) is left alone.
   * Meant for a record whose result its caller has read, so that it need not stay the whole window.
   *
   * @param grace how long the record may still be read, from now (0 to 10 years)
   * @return true when the job had a finished record (now due within the grace); false when it is
   *     unknown, gone already, or not finished
   * @throws InvalidArgumentException when the id is not a valid job id or the grace is null,
   *     negative or over 10 years
   */
  public boolean shortenRetention(QueueName queue, String id, Duration grace) {
    Checks.id(id);
    if (grace == null) {
      throw new InvalidArgumentException("grace", "is required");
    }
    Checks.duration("grace", grace, 0, Limits.MAX_DELAY_MS);
    return engine.store().shortenRetention(queue, id, grace) == ScriptCode.OK;
  }

  /**
   * A worker that leases from {@code queue} and runs {@code handler} on virtual threads. Call
   * {@link Worker#start()}.
   *
   * @throws InvalidArgumentException when the concurrency is out of range, the idle wait is under 1
   *     ms or a duration is over the engine's longest wait ({@link Limits#MAX_WAIT_MS})
   */
  public Worker worker(QueueName queue, JobHandler<LeasedJob> handler, WorkerOptions options) {
    return new Worker(
        leaser, engine.store(), queue, handler, options, engine.options().observation());
  }

  /**
   * A subscribe-style consumer: iterate it to receive jobs; settle each with {@link JobStream#ack}
   * or {@link JobStream#nack}. Leases are extended until then.
   *
   * @throws InvalidArgumentException as {@link #worker} does for the options
   */
  public JobStream stream(QueueName queue, WorkerOptions options) {
    return new JobStream(this, queue, options);
  }

  // ---- inspection ----

  /** A job as it stands, or empty when unknown (or past retention). */
  public Optional<JobInfo> get(QueueName queue, String id) {
    return inspector.get(queue, id);
  }

  /** Whether the job's record exists. */
  public boolean exists(QueueName queue, String id) {
    return inspector.exists(queue, id);
  }

  /** A ready job's place in line (0 = next), or -1 when it is not ready or unknown. */
  public long position(QueueName queue, String id) {
    return inspector.position(queue, id);
  }

  /**
   * The places in line of several jobs (0 = next), in the order of {@code ids}; -1 for a job that
   * is not ready or unknown. One round trip whatever the number of ids (the queue's keys share one
   * slot, so this holds on a cluster too); each place is exact as of its own read.
   *
   * @throws InvalidArgumentException when an id is malformed
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public long[] positions(QueueName queue, List<String> ids) {
    return inspector.positions(queue, ids);
  }

  /** Counts per state, rates, effective settings and counters of a queue. */
  public QueueStats stats(QueueName queue) {
    return inspector.stats(queue);
  }

  /**
   * An estimator of the waits of the queue's ready jobs as of now, from one read of its statistics:
   * {@code etaEstimator(queue).eta(position)} is what {@link JobInfo#eta()} of the job at that
   * position reads, without reading the job. For callers that estimate many positions, or that keep
   * an estimator for a moment (it does not follow the queue's later changes).
   *
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public EtaEstimator etaEstimator(QueueName queue) {
    return inspector.etaEstimator(queue);
  }

  /**
   * One reading of the queue's line for an ETA: its time, its ready jobs and its estimator, so a
   * caller can ask the ETA of the back of the line before it publishes (a deadline check). One
   * Redis call.
   *
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public io.lineup.core.model.EtaReading etaReading(QueueName queue) {
    return inspector.etaReading(queue);
  }

  /** The next {@code count} ready jobs in lease order, from {@code offset}. */
  public List<PeekedJob> peek(QueueName queue, int offset, int count) {
    return inspector.peek(queue, offset, count);
  }

  /**
   * A page of the jobs leased now, by lease deadline (soonest first), then id: keyset paging that
   * stays exact while leases come and go (a lease ended meanwhile is simply absent; a new one
   * appears where its deadline puts it).
   *
   * @param fromDeadlineMs the deadline to start from, epoch ms (0 for the first page)
   * @param afterId the last id of the previous page, whose deadline was {@code fromDeadlineMs};
   *     null for the first page. Entries with that deadline and an id not after it are skipped
   * @param count 1 to 1,000 entries
   * @throws InvalidArgumentException when count is out of range
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public List<io.lineup.core.model.LeaseEntry> leased(
      QueueName queue, long fromDeadlineMs, String afterId, int count) {
    return inspector.leased(queue, fromDeadlineMs, afterId, count);
  }

  /**
   * A page of the queue's finished jobs (acked, cancelled or expired, kept for the retention
   * window), newest first, then by id descending: keyset paging as {@link #leased}. The entries'
   * times are when each job finished.
   *
   * @param toMs the finish time to start from, epoch ms ({@link Long#MAX_VALUE} for the first page)
   * @param beforeId the last id of the previous page, whose time was {@code toMs}; null for the
   *     first page
   * @param count 1 to 1,000 entries
   * @throws InvalidArgumentException when count is out of range
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public List<io.lineup.core.model.LeaseEntry> finished(
      QueueName queue, long toMs, String beforeId, int count) {
    return inspector.finished(queue, toMs, beforeId, count);
  }

  /**
   * A page of the ready line in lease order (for a queue that is not fair), keyset-paged by line
   * score: each entry is a job id and its score, and the last entry's score starts the next page,
   * which then begins right after that job wherever the line has moved.
   *
   * @param afterScore the last score of the previous page, or null for the front of the line
   * @param count 1 to 1,000 entries
   * @throws InvalidArgumentException when count is out of range
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public List<Map.Entry<String, Double>> lineAfter(QueueName queue, Double afterScore, int count) {
    if (count < 1 || count > 1000) {
      throw new InvalidArgumentException("count", "must be 1 to 1000");
    }
    return engine.store().readyAfter(queue, afterScore, count);
  }

  /** Whether the queue was ever published to or configured (one cheap lookup). */
  public boolean isKnown(QueueName queue) {
    return inspector.isKnown(queue);
  }

  /** Every queue that was ever published to or configured. */
  public List<QueueName> queues() {
    return inspector.queues();
  }

  /**
   * Reads up to {@code count} entries of the queue's event stream after {@code afterStreamId} (null
   * = from the oldest kept). The stream keeps about the last 1,000 entries.
   *
   * @throws InvalidArgumentException when count is outside 1..{@value Limits#MAX_BATCH} or the id
   *     is not a stream id
   */
  public List<QueueEvent> events(QueueName queue, String afterStreamId, int count) {
    return inspector.events(queue, afterStreamId, count);
  }

  /**
   * The id of the newest entry of the queue's event stream, or null when it has none: every state
   * change of the queue's jobs appends an entry, so a caller that keeps this id and later reads
   * {@link #events} after it sees every change since (while the stream, capped at about 1,000
   * entries, still holds them). One cheap read.
   *
   * @throws RedisUnavailableException when Redis does not answer in time
   */
  public String lastEventId(QueueName queue) {
    return inspector.lastEventId(queue);
  }

  // ---- dead letters ----

  /** A page of dead letters, oldest death first. */
  public DeadPage deadLetters(QueueName queue, int offset, int count) {
    return deadLetters.list(queue, offset, count);
  }

  /** Puts these dead jobs back in line, attempts reset, with a fresh TTL (null = none). */
  public int respawn(QueueName queue, List<String> ids, Duration ttl) {
    return deadLetters.respawn(queue, ids, ttl);
  }

  /** Puts the {@code count} oldest dead jobs back in line; {@link Long#MAX_VALUE} for all. */
  public long respawnOldest(QueueName queue, long count, Duration ttl) {
    return deadLetters.respawnOldest(queue, count, ttl);
  }

  /** Deletes every dead letter of the queue; returns how many. */
  public long purgeDead(QueueName queue) {
    return deadLetters.purge(queue);
  }

  // ---- jobs by state ----

  /**
   * A page of one state's jobs (ready, delayed, leased, dead or finished) in that state's order or
   * its reverse, after the query's cursor, filtered by id prefix, error text and time range. Keyset
   * paging: the page starts right after the last entry the page before examined, found in O(log n)
   * wherever it now stands, so jobs that stay in the state are neither skipped nor repeated while
   * others come and go. One page examines at most {@value JobListQuery#SCAN_PER_PAGE} entries: a
   * filter that matches few jobs may answer a short page, or none, with a cursor to go on from.
   *
   * @throws InvalidArgumentException when the limit is out of 1 to {@value JobListQuery#MAX_LIMIT},
   *     a filter text is empty or over {@value JobListQuery#MAX_FILTER_CHARS} characters, from is
   *     after to, or the cursor is not one this engine gave for this list and order
   */
  public JobListPage listJobs(QueueName queue, JobListQuery query) {
    return jobLists.list(queue, query);
  }

  /**
   * One action on each of these jobs (1 to {@value Limits#MAX_BATCH} ids), in one script call; a
   * job not in a state the action takes (see {@link JobAction}) is skipped and named in the result
   * with why.
   *
   * @param ttl for {@link JobAction#RESPAWN}: a fresh TTL from now, or null for none; ignored by
   *     the other actions
   * @throws InvalidArgumentException when ids are missing, too many or malformed
   */
  public JobActionResult actOnJobs(
      QueueName queue, JobAction action, List<String> ids, Duration ttl) {
    return jobLists.act(queue, action, ids, ttl);
  }

  /**
   * One action on every job a query's filter matches (its cursor and limit are ignored), once the
   * filter matches exactly {@code expectedCount} jobs: the count the caller confirmed. Jobs are
   * gathered first, at most 10,000 and examining at most 100,000 entries, then acted on in batches
   * of {@value Limits#MAX_BATCH}, each checked in its own state.
   *
   * @throws CountMismatchException when the filter matches another number of jobs (nothing done)
   * @throws InvalidArgumentException when the filter matches too many jobs or needs too long a
   *     scan, or the query is malformed
   */
  public JobActionResult actOnMatchingJobs(
      QueueName queue, JobAction action, JobListQuery query, long expectedCount, Duration ttl) {
    return jobLists.actOnMatching(queue, action, query, expectedCount, ttl);
  }

  // ---- settings ----

  /**
   * Changes queue settings; fields left null are unchanged. Takes effect at once on every instance.
   *
   * @throws InvalidArgumentException when a value is out of range (nothing is written)
   */
  public void configure(QueueName queue, QueueSettings change) {
    List<String> pairs = SettingsCodec.encode(change);
    if (pairs.isEmpty()) {
      return;
    }
    engine.store().register(queue);
    engine.store().configure(queue, pairs);
    publisher.settingsChanged(queue);
  }

  /** Pauses a queue: publishing still works, leases return nothing. */
  public void pause(QueueName queue) {
    configure(queue, QueueSettings.builder().paused(true).build());
  }

  /** Resumes a paused queue and wakes its consumers. */
  public void resume(QueueName queue) {
    configure(queue, QueueSettings.builder().paused(false).build());
  }

  // ---- Redis ----

  /**
   * One round trip to Redis, for readiness checks.
   *
   * @throws RedisUnavailableException when Redis does not answer
   */
  public Duration ping() {
    return engine.store().ping();
  }

  /** The Redis server's version, mode and the settings that decide whether jobs can be lost. */
  public RedisServerInfo redisInfo() {
    return engine.store().info();
  }

  /**
   * Recurring schedules: named specs that publish one job per tick to their queue, decided in Redis
   * whatever the number of engines (docs/schedules.md).
   */
  public Schedules schedules() {
    return schedules;
  }

  /**
   * The fairness keys of fair queues: per-key weights and limits, pausing a key, per-key counts and
   * deleting a key's waiting jobs (see {@link Fairness}).
   */
  public Fairness fairness() {
    return fairness;
  }

  /**
   * Adaptive concurrency limits: a queue's limit that follows the answers of the service its jobs
   * call, shared in Redis by every engine (see {@link AdaptiveLimits}).
   */
  public AdaptiveLimits adaptiveLimits() {
    return adaptiveLimits;
  }

  /** The archive outbox of every queue: switch archiving on, read and acknowledge ended jobs. */
  public ArchiveOutbox archiveOutbox() {
    return archiveOutbox;
  }

  /**
   * Takes a named lock for {@code ttl} unless another holder has it: for work that one instance at
   * a time should do (the lock is not renewed; do less than {@code ttl} of work under it).
   *
   * @return whether {@code holder} now holds the lock (false when someone else holds it, and also
   *     when {@code holder} itself still holds it from an earlier call)
   * @throws InvalidArgumentException when the name or holder is empty or the ttl is under 1 ms
   */
  public boolean tryLock(String name, String holder, Duration ttl) {
    if (name == null || name.isEmpty() || name.length() > RecordStore.MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "name", "must be 1 to " + RecordStore.MAX_NAME_LENGTH + " characters");
    }
    if (holder == null || holder.isEmpty()) {
      throw new InvalidArgumentException("holder", "must not be empty");
    }
    if (ttl == null || ttl.toMillis() < 1) {
      throw new InvalidArgumentException("ttl", "must be at least 1 ms");
    }
    return engine.store().tryLock(name, holder, ttl);
  }

  /** A named collection of small records for the server's own data (namespaces, hashed tokens). */
  public RecordStore records(String collection) {
    return new RecordStore(engine.store(), collection, recordWrites);
  }

  /** Stops the background loops and closes the connections. Workers should be closed first. */
  @Override
  public void close() {
    scheduleEngine.close();
    if (maintenance != null) {
      maintenance.close();
    }
    engine.store().close();
  }
}
