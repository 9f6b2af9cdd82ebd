package io.lineup.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.DeadlineFields;
import io.lineup.api.ErrorCode;
import io.lineup.api.TraceContext;
import io.lineup.core.Lineup;
import io.lineup.core.model.DeadJob;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaReading;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.KeyBacklogFullException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The tasks of the endpoints: submitted, read (waiting for their end when asked), listed when they
 * ran out of attempts, and cancelled. A task is an engine job in its endpoint's queue.
 */
public final class Tasks {
  /** Longest wait for a task's end in {@link #task}, in milliseconds. */
  public static final long MAX_WAIT_MS = 300_000;

  /** Most dead tasks in one page of {@link #deadTasks}. */
  public static final int MAX_DEAD_PAGE = 100;

  /** How often a wait reads the task again when no local dispatcher reports its end. */
  static final long WAIT_POLL_MS = 100;

  /** Grace added to a task's bound in Redis beyond its line timeout and attempts: 1 min. */
  public static final long RECORD_GRACE_MS = 60_000;

  private final Lineup lineup;
  private final TaskArchive archive;
  private final Endpoints endpoints;
  private final CircuitBreakers breakers;
  private final NamespaceCallbacks namespaceCallbacks;
  private final Callbacks callbacks;
  private final SubmitEtas submitEtas;
  private final int maxBodyBytes;
  private final Map<String, Thread> running = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Void>> ends = new ConcurrentHashMap<>();

  Tasks(
      Lineup lineup,
      TaskArchive archive,
      Endpoints endpoints,
      CircuitBreakers breakers,
      NamespaceCallbacks namespaceCallbacks,
      Callbacks callbacks,
      SubmitEtas submitEtas,
      int maxBodyBytes) {
    this.lineup = lineup;
    this.archive = archive;
    this.endpoints = endpoints;
    this.breakers = breakers;
    this.namespaceCallbacks = namespaceCallbacks;
    this.callbacks = callbacks;
    this.submitEtas = submitEtas;
    this.maxBodyBytes = maxBodyBytes;
  }

  /**
   * What a submit did.
   *
   * @param created false when the idempotency key matched an earlier task, which is answered
   * @param task the task as it stands
   */
  public record Submitted(boolean created, Task task) {}

  /** The largest task body, in bytes: the engine's payload limit less the room of the head. */
  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /**
   * Submits a task, checked first ({@link TaskSubmission#checked}); nothing is queued when it is
   * refused.
   *
   * @throws EndpointNotFoundException for an unknown endpoint
   * @throws DispatchInputException naming the field that is wrong; {@code key_backlog_full} (429)
   *     when the task's key already has its endpoint's {@code fairness.key_max_waiting} tasks
   *     waiting
   */
  public Submitted submit(EndpointKey key, TaskSubmission submission) {
    return submit(key, submission, null);
  }

  /**
   * {@link #submit(EndpointKey, TaskSubmission)} continuing a trace: the task stores the W3C trace
   * context, and each attempt sends it to the endpoint in {@code traceparent} and {@code
   * tracestate} (a child span's when the engine has an Observation registry).
   *
   * @param trace the submitter's trace context (a submit request's headers), or null for none
   * @throws EndpointNotFoundException for an unknown endpoint
   * @throws DispatchInputException as {@link #submit(EndpointKey, TaskSubmission)}
   */
  public Submitted submit(EndpointKey key, TaskSubmission submission, TraceContext trace) {
    EndpointSpec spec = endpoints.spec(key);
    TaskSubmission task =
        submission.checked(spec, maxBodyBytes, () -> namespaceCallbacks.settings(key.namespace()));
    NewJob job =
        NewJob.of(task.request().encode()).priority(task.priority()).key(task.request().key());
    if (trace != null) {
      job.traceparent(trace.traceparent()).tracestate(trace.tracestate());
    }
    long waitBefore = 0;
    if (task.delayMs() != null) {
      job.delay(Duration.ofMillis(task.delayMs()));
      waitBefore = task.delayMs();
    } else if (task.notBefore() != null) {
      job.runAt(Instant.ofEpochMilli(task.notBefore()));
      waitBefore = Math.max(0, task.notBefore() - System.currentTimeMillis());
    }
    if (task.idempotencyKey() != null) {
      job.id(idFor(task.idempotencyKey()));
    }
    long lineWait = spec.lineTimeoutMs();
    if (task.request().hasDeadline()) {
      long now = checkDeadlines(key, spec, task.request(), waitBefore);
      // A deadline shortens how long the record may wait in line: past it, nothing is sent.
      lineWait = Math.min(lineWait, Math.max(0, latestStart(task.request()) - now - waitBefore));
    }
    job.ttl(Duration.ofMillis(recordBound(spec, waitBefore, lineWait)));
    archive.beforePublish(key.queue());
    PublishResult result;
    try {
      result = lineup.publish(key.queue(), job);
    } catch (KeyBacklogFullException full) {
      throw backlogFull(full);
    }
    if (!result.created()) {
      // A repeat of an idempotency key answers the first task as it stands.
      Task first =
          lineup
              .get(key.queue(), result.id())
              .map(info -> TaskReader.task(key, info))
              .orElseGet(() -> TaskReader.published(key, result));
      return new Submitted(false, first);
    }
    // A paused endpoint (or an open breaker) gives no ETA, as a read of the task would say; the
    // estimator may be up to SubmitEtas.MAX_AGE_MS older than a pause on another instance.
    boolean stopped = spec.paused() || breakers.stops(key, spec);
    Eta eta = stopped ? null : submitEtas.eta(key.queue(), result.position()).orElse(null);
    return new Submitted(true, TaskReader.submitted(key, task, spec, result, eta));
  }

  /**
   * A task as the job template of a recurring schedule on the endpoint's queue: the request checked
   * as a submit checks it ({@link TaskSubmission#checked}, the callback URL against the namespace's
   * prefixes included), with a recurring delivery key ({@link
   * TaskRequest#newRecurringDeliveryKey()}) and the time to live of a submitted task's record.
   * Nothing is queued; the schedule publishes one job per tick. A schedule says when its tasks are
   * due, so the submission's delay, due time and idempotency key are refused.
   *
   * @throws EndpointNotFoundException for an unknown endpoint
   * @throws DispatchInputException naming the field that is wrong
   */
  public RecurringTask recurring(EndpointKey key, TaskSubmission submission) {
    EndpointSpec spec = endpoints.spec(key);
    if (submission.delayMs() != null || submission.notBefore() != null) {
      throw DispatchInputException.invalidField(
          submission.delayMs() != null ? "delay_ms" : "not_before",
          "a recurring task is due at its schedule's ticks");
    }
    if (submission.idempotencyKey() != null) {
      throw DispatchInputException.invalidField(
          "idempotency_key", "a recurring task's tasks are told apart by their ticks");
    }
    if (submission.request().hasDeadline()) {
      throw DispatchInputException.invalidField(
          submission.request().startBy() != null
              ? DeadlineFields.START_BY
              : DeadlineFields.FINISH_BY,
          "a recurring task takes no deadline");
    }
    TaskRequest given = submission.request();
    TaskSubmission recurring =
        new TaskSubmission(
            new TaskRequest(
                given.method(),
                given.path(),
                given.headers(),
                given.contentType(),
                given.body(),
                given.callbackUrl(),
                TaskRequest.newRecurringDeliveryKey()),
            submission.priority(),
            null,
            null,
            null);
    TaskSubmission task =
        recurring.checked(spec, maxBodyBytes, () -> namespaceCallbacks.settings(key.namespace()));
    return new RecurringTask(
        task.request(), task.priority(), Duration.ofMillis(recordBound(spec, 0)));
  }

  /**
   * How long a task's record may live in Redis before the engine drops it (state {@code
   * timed_out}): its delay, its line timeout, every attempt with its longest wait, and a grace.
   */
  static long recordBound(EndpointSpec spec, long waitBefore) {
    return recordBound(spec, waitBefore, spec.lineTimeoutMs());
  }

  /**
   * {@link #recordBound(EndpointSpec, long)} with the wait in line bounded by {@code lineWaitMs}
   * instead of the endpoint's line timeout (a task with a deadline waits no longer than it).
   */
  static long recordBound(EndpointSpec spec, long waitBefore, long lineWaitMs) {
    long perAttempt =
        spec.attemptTimeoutMs()
            + Dispatcher.LEASE_MARGIN_MS
            + Math.max(
                spec.retryAfterCapMs(),
                Math.max(spec.backoff().maxMs(), spec.backoff().longestScheduledMs()));
    long bound = waitBefore + lineWaitMs + spec.maxAttempts() * perAttempt + RECORD_GRACE_MS;
    return Math.min(bound, Limits.MAX_DELAY_MS);
  }

  /**
   * How long one request of the endpoint is expected to take, for a {@code finish_by} deadline, in
   * milliseconds: its {@code expected_service_ms} when set, else its attempt timeout (the longest
   * an attempt may take).
   */
  static long expectedServiceMs(EndpointSpec spec) {
    return spec.expectedServiceMs() != null ? spec.expectedServiceMs() : spec.attemptTimeoutMs();
  }

  /**
   * The moment past which a task's deadlines let nothing be sent (epoch ms), for its record bound:
   * the earlier of its {@code start_by} and its {@code finish_by} (the expected service time before
   * a {@code finish_by} is checked at submit and at lease, not here); {@link Long#MAX_VALUE} when
   * it has neither.
   */
  static long latestStart(TaskRequest request) {
    long latest = Long.MAX_VALUE;
    if (request.startBy() != null) {
      latest = request.startBy();
    }
    if (request.finishBy() != null) {
      latest = Math.min(latest, request.finishBy());
    }
    return latest;
  }

  /**
   * Checks a task's deadlines against the ETA of the back of the endpoint's ready line (one read of
   * the line, only for a task with a deadline). The earliest start is the later of the task's due
   * time and the high end of the ETA band; a {@code finish_by} must leave the endpoint's expected
   * service time ({@link #expectedServiceMs}) after it. An endpoint without an ETA (paused, its
   * breaker open, nothing measured and no expected service time) takes the task unless a deadline
   * falls before its due time.
   *
   * @param waitBefore the task's wait before it is due, in milliseconds
   * @return the time of the reading (epoch ms, the engine's clock)
   * @throws DispatchInputException {@code deadline_unreachable} naming the deadline that cannot be
   *     met, with {@code earliest_start_at}
   */
  private long checkDeadlines(
      EndpointKey key, EndpointSpec spec, TaskRequest request, long waitBefore) {
    EtaReading reading = lineup.etaReading(key.queue());
    long now = reading.readAt().toEpochMilli();
    boolean stopped = spec.paused() || breakers.stops(key, spec);
    Optional<Eta> eta = stopped ? Optional.empty() : reading.estimator().eta(reading.ready());
    long high = eta.map(e -> e.high().toMillis()).orElse(0L);
    long earliest = now + Math.max(waitBefore, high);
    if (request.startBy() != null && request.startBy() < earliest) {
      throw unreachable(DeadlineFields.START_BY, request.startBy(), earliest, "start");
    }
    if (request.finishBy() != null) {
      long service = eta.isPresent() ? expectedServiceMs(spec) : 0;
      if (request.finishBy() < earliest + service) {
        throw unreachable(DeadlineFields.FINISH_BY, request.finishBy(), earliest, "finish")
            .with("expected_service_ms", service);
      }
    }
    return now;
  }

  /**
   * A key at its most tasks waiting, answered as a publish past it is ({@code key_backlog_full}).
   */
  private static DispatchInputException backlogFull(KeyBacklogFullException full) {
    return new DispatchInputException(
            ErrorCode.KEY_BACKLOG_FULL,
            "key",
            "key '"
                + full.key()
                + "' has "
                + full.waiting()
                + " tasks waiting and may have at most "
                + full.maxWaiting()
                + " (the endpoint's fairness.key_max_waiting); nothing was queued")
        .with("key", full.key())
        .with("max_waiting", full.maxWaiting())
        .with("waiting", full.waiting());
  }

  private static DispatchInputException unreachable(
      String field, long deadline, long earliest, String what) {
    return new DispatchInputException(
            ErrorCode.DEADLINE_UNREACHABLE,
            field,
            "the task cannot "
                + what
                + " by "
                + Instant.ofEpochMilli(deadline)
                + ": the endpoint's line could start it by "
                + Instant.ofEpochMilli(earliest)
                + " at the latest; nothing was queued")
        .with(DeadlineFields.EARLIEST_START_AT, earliest);
  }

  /** The job id of an idempotency key: a hash, so any key text makes a valid id. */
  static String idFor(String idempotencyKey) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256")
              .digest(idempotencyKey.getBytes(StandardCharsets.UTF_8));
      return "k:" + Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * A task as it stands, waiting up to {@code waitMs} for it to end. A finished task answered to
   * its caller has been read: its record is then kept only the endpoint's {@code read_grace_ms}
   * more (or less, when its retention ends sooner).
   *
   * @param waitMs 0 to {@link #MAX_WAIT_MS}
   * @param callerRead whether the reader is the task's caller (its answer starts the read grace);
   *     false for a look that must not shorten the record's life (the dashboard, a read token)
   * @throws EndpointNotFoundException when the endpoint is unknown
   * @throws TaskNotFoundException when the task is unknown
   * @throws InterruptedException when interrupted while waiting
   */
  public Task task(EndpointKey key, String id, long waitMs, boolean callerRead)
      throws InterruptedException {
    EndpointSpec spec = endpoints.spec(key);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    while (true) {
      CompletableFuture<Void> end =
          waitMs > 0 ? ends.computeIfAbsent(key.taskKey(id), k -> new CompletableFuture<>()) : null;
      // Redis first; a task whose record is gone is answered from the archive (when it is on).
      Task task =
          archive
              .find(key.queue(), id)
              .map(info -> TaskReader.task(key, info))
              .orElseThrow(() -> new TaskNotFoundException(key, id));
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (task.finished() || left <= 0) {
        if (end != null) {
          ends.remove(key.taskKey(id), end);
        }
        if (callerRead && task.finished()) {
          // Its caller has the result now, so the record need not stay the whole retention
          // window: it goes after the endpoint's read grace (a failed task, a dead letter, is
          // not in the finished line and keeps its record bound).
          lineup.shortenRetention(key.queue(), id, Duration.ofMillis(spec.readGraceMs()));
        }
        return task;
      }
      try {
        end.get(Math.min(left, WAIT_POLL_MS), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // Read it again: it may have ended on another instance.
      }
    }
  }

  /**
   * Some of an endpoint's tasks by id, in order, each as {@link #task} shows it from Redis; ids
   * without a record any more are left out. Reading them starts no read grace.
   *
   * @throws EndpointNotFoundException for an unknown endpoint
   */
  public List<Task> tasks(EndpointKey key, List<String> ids) {
    endpoints.spec(key);
    List<Task> tasks = new ArrayList<>(ids.size());
    for (String id : ids) {
      lineup.get(key.queue(), id).ifPresent(info -> tasks.add(TaskReader.task(key, info)));
    }
    return List.copyOf(tasks);
  }

  /**
   * A page of an endpoint's tasks that ran out of attempts, oldest death first. Reading them starts
   * no read grace.
   *
   * @param count 1 to {@link #MAX_DEAD_PAGE}
   * @throws EndpointNotFoundException for an unknown endpoint
   */
  public DeadTasks deadTasks(EndpointKey key, int offset, int count) {
    endpoints.spec(key);
    DeadPage page = lineup.deadLetters(key.queue(), offset, count);
    List<Task> tasks = new ArrayList<>();
    for (DeadJob job : page.jobs()) {
      lineup.get(key.queue(), job.id()).ifPresent(info -> tasks.add(TaskReader.task(key, info)));
    }
    return new DeadTasks(key, page.total(), List.copyOf(tasks));
  }

  /**
   * Cancels a task: a queued one is never sent; a running one has its request aborted (at once on
   * this instance, within half its lease on another) and its result discarded.
   *
   * @return the state before
   * @throws EndpointNotFoundException for an unknown endpoint
   * @throws io.lineup.core.model.JobNotFoundException when the task is unknown
   * @throws io.lineup.core.model.JobFinishedException when it has ended
   */
  public JobState cancel(EndpointKey key, String id) {
    endpoints.spec(key);
    // Read first: the callback needs the task's URL and attempts, and a cancelled job keeps no
    // result to read them from afterwards.
    Optional<JobInfo> info = lineup.get(key.queue(), id);
    JobState before = lineup.cancel(key.queue(), id);
    Thread thread = running.get(key.taskKey(id));
    if (thread != null) {
      thread.interrupt();
    }
    completeWaiters(key, id);
    info.ifPresent(task -> callBackCancelled(key, task));
    return before;
  }

  /** A cancelled task ended too: its callback says so, with the attempts it had made. */
  private void callBackCancelled(EndpointKey key, JobInfo task) {
    TaskRequest request;
    try {
      request = TaskRequest.decode(task.payload());
    } catch (RuntimeException notATask) {
      return;
    }
    if (request.callbackUrl() == null) {
      return;
    }
    ObjectNode record = DispatchJson.object();
    record.put("outcome", Outcome.CANCELLED.json());
    record.putNull("error");
    record.set("attempts", Attempt.toJson(Attempt.parseHistory(task.lastError())));
    record.putNull("response");
    callbacks.enqueue(key, task.id(), request, record, Callbacks.CANCELLED);
  }

  /** The request threads of the tasks being sent on this instance, by task key. */
  Map<String, Thread> running() {
    return running;
  }

  /**
   * A task's record as stored: in Redis, or in the archive once its Redis record is gone. Reading
   * it here does not start its read grace.
   */
  Optional<JobInfo> find(EndpointKey key, String id) {
    return archive.find(key.queue(), id);
  }

  /** The attempts recorded by the previous nacks of a task. */
  List<Attempt> previousAttempts(QueueName queue, String id) {
    return lineup
        .get(queue, id)
        .map(info -> Attempt.parseHistory(info.lastError()))
        .orElseGet(ArrayList::new);
  }

  /**
   * A dispatcher ended a task: wake its waiters and queue its callback.
   *
   * @param record the task's outcome record, as stored (for a task out of attempts: as the last
   *     attempt left it, with its last response)
   */
  void ended(EndpointKey key, String id, TaskRequest request, ObjectNode record) {
    completeWaiters(key, id);
    if (request != null && request.callbackUrl() != null) {
      callbacks.enqueue(key, id, request, record, Callbacks.ENDED);
    }
  }

  private void completeWaiters(EndpointKey key, String id) {
    CompletableFuture<Void> end = ends.remove(key.taskKey(id));
    if (end != null) {
      // After the ack lands: the waiter reads the task again and sees it finished.
      CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS).execute(() -> end.complete(null));
    }
  }
}
