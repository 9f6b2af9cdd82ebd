package io.lineup.server.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Lineup;
import io.lineup.core.RecordStore;
import io.lineup.core.ReleaseJobException;
import io.lineup.core.model.Eta;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.server.archive.JobArchive;
import io.lineup.server.auth.Principal;
import io.lineup.server.egress.CheckedResolver;
import io.lineup.server.egress.EgressPolicy;
import io.lineup.server.egress.EgressRefusedException;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.net.URI;
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
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * API dispatch on this server instance: endpoints (stored in Redis, read by every instance every
 * {@value #SYNC_INTERVAL_MS} ms), tasks (engine jobs in the endpoint's queue), the dispatchers that
 * send them, and the circuit breakers. Uses the engine's public API only.
 */
public final class DispatchService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DispatchService.class);

  /** How often an instance reads the endpoints and breakers from Redis, in milliseconds. */
  public static final long SYNC_INTERVAL_MS = 250;

  /** Longest long-poll of a task ({@code wait_ms}), in milliseconds. */
  public static final long MAX_WAIT_MS = 300_000;

  /** How often a long-poll reads the task again when no local dispatcher reports its end. */
  static final long WAIT_POLL_MS = 100;

  /** Grace added to a task's bound in Redis beyond its line timeout and attempts: 1 min. */
  public static final long RECORD_GRACE_MS = 60_000;

  /**
   * Lease length beyond the attempt timeout: 2 s. A killed instance's tasks go back in line this
   * long after their attempt would have timed out.
   */
  public static final long LEASE_MARGIN_MS = 2_000;

  private final Lineup lineup;
  private final JobArchive archive;
  private final RecordStore endpointRecords;
  private final Breakers breakers;
  private final RecordStore callbackRecords;
  private final int maxTaskBodyBytes;
  private final Map<String, EndpointDispatcher> dispatchers = new ConcurrentHashMap<>();
  private final Map<String, String> applied = new ConcurrentHashMap<>();
  private final Map<String, Thread> running = new ConcurrentHashMap<>();
  private final Map<String, CompletableFuture<Void>> ends = new ConcurrentHashMap<>();
  private final EgressPolicy egressPolicy;
  private final EgressClient egress;
  private final Callbacks callbacks;
  private final SubmitEtas submitEtas;
  private volatile boolean closed;
  private Thread syncer;

  /**
   * @param lineup the engine
   * @param maxPayloadBytes the engine's payload limit; a task body may use it less {@link
   *     TaskRequest#HEAD_ROOM_BYTES}
   * @param archive the SQL archive, which answers for tasks whose Redis record is gone
   * @param egressPolicy what tasks and callbacks may connect to
   */
  public DispatchService(
      Lineup lineup, int maxPayloadBytes, JobArchive archive, EgressPolicy egressPolicy) {
    this(lineup, maxPayloadBytes, archive, egressPolicy, new CheckedResolver(egressPolicy));
  }

  /**
   * @param resolver resolves targets under the policy (tests give one with their own names)
   */
  DispatchService(
      Lineup lineup,
      int maxPayloadBytes,
      JobArchive archive,
      EgressPolicy egressPolicy,
      CheckedResolver resolver) {
    this.lineup = lineup;
    this.archive = archive;
    this.endpointRecords = lineup.records("dispatch-endpoints");
    this.breakers = new Breakers(lineup.records("dispatch-breakers"));
    this.callbackRecords = lineup.records("dispatch-callbacks");
    this.maxTaskBodyBytes = Math.max(0, maxPayloadBytes - TaskRequest.HEAD_ROOM_BYTES);
    this.egressPolicy = egressPolicy;
    this.egress = new EgressClient(resolver);
    this.callbacks = new Callbacks(this);
    this.submitEtas = new SubmitEtas(lineup);
  }

  /** Starts following the endpoints (and sending their tasks) and the callbacks. */
  public synchronized void start() {
    if (syncer != null) {
      return;
    }
    syncQuietly();
    syncer = Thread.ofVirtual().name("lineup-dispatch-sync").start(this::syncLoop);
  }

  Lineup lineup() {
    return lineup;
  }

  Map<String, Thread> running() {
    return running;
  }

  /** The client of every task and callback request. */
  EgressClient egress() {
    return egress;
  }

  /** The largest task body, in bytes. */
  int maxTaskBodyBytes() {
    return maxTaskBodyBytes;
  }

  // ---- endpoints ----

  /**
   * Creates or replaces an endpoint; its limits hold at once, and every instance sends its tasks
   * within {@link #SYNC_INTERVAL_MS} ms.
   *
   * @return true when it was created, false when replaced
   */
  public boolean putEndpoint(EndpointKey key, EndpointSpec spec) {
    checkEgress("base_url", spec.baseUrl());
    long now = System.currentTimeMillis();
    Optional<ObjectNode> before = storedEndpoint(key);
    ObjectNode record = Json.object();
    record.set("spec", spec.toJson());
    record.put("created_at", before.map(b -> b.path("created_at").asLong(now)).orElse(now));
    record.put("updated_at", now);
    endpointRecords.put(key.recordId(), new String(Json.write(record), StandardCharsets.UTF_8));
    applySettings(key, spec, breakers.seen(key).state(), false);
    syncQuietly();
    return before.isEmpty();
  }

  /** An endpoint as the API shows it, or empty when unknown. */
  public Optional<ObjectNode> endpoint(EndpointKey key) {
    return storedEndpoint(key).map(record -> endpointView(key, record));
  }

  /** The endpoints of a namespace, by name. */
  public List<ObjectNode> endpoints(String namespace) {
    List<ObjectNode> views = new ArrayList<>();
    for (var entry : endpointRecords.all().entrySet()) {
      if (entry.getKey().startsWith(namespace + "/")) {
        EndpointKey key =
            new EndpointKey(namespace, entry.getKey().substring(namespace.length() + 1));
        views.add(endpointView(key, parseRecord(entry.getValue())));
      }
    }
    return views;
  }

  /**
   * Deletes an endpoint: its dispatchers stop within {@link #SYNC_INTERVAL_MS} ms; its queued tasks
   * stay in its queue (a new endpoint of the same name sends them).
   *
   * @return whether it existed
   */
  public boolean deleteEndpoint(EndpointKey key) {
    boolean existed = endpointRecords.delete(key.recordId());
    breakers.delete(key);
    syncQuietly();
    return existed;
  }

  /**
   * The endpoint's settings.
   *
   * @throws ApiException 404 naming {@code endpoint} when unknown
   */
  public EndpointSpec spec(EndpointKey key) {
    EndpointDispatcher running = dispatchers.get(key.recordId());
    if (running != null) {
      return running.spec();
    }
    return storedEndpoint(key)
        .map(record -> EndpointSpec.parse(record.get("spec")))
        .orElseThrow(() -> unknownEndpoint(key));
  }

  private static ApiException unknownEndpoint(EndpointKey key) {
    return new ApiException(
            io.lineup.api.ErrorCode.NOT_FOUND,
            "endpoint",
            "no endpoint " + key.name() + " in namespace " + key.namespace())
        .with("endpoint", key.name());
  }

  private Optional<ObjectNode> storedEndpoint(EndpointKey key) {
    return endpointRecords.get(key.recordId()).map(DispatchService::parseRecord);
  }

  private static ObjectNode parseRecord(String text) {
    try {
      return (ObjectNode) Json.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new IllegalStateException("A stored endpoint is not JSON", e);
    }
  }

  private ObjectNode endpointView(EndpointKey key, ObjectNode record) {
    ObjectNode view = Json.object();
    view.put("namespace", key.namespace());
    view.put("endpoint", key.name());
    view.setAll((ObjectNode) record.get("spec"));
    view.put("created_at", record.path("created_at").asLong());
    view.put("updated_at", record.path("updated_at").asLong());
    BreakerState breaker = breakers.read(key);
    ObjectNode b = view.putObject("circuit_breaker_state");
    b.put("state", breaker.json());
    if (breaker.state() == BreakerState.State.OPEN) {
      b.put("probe_at", breaker.openUntil());
    } else {
      b.putNull("probe_at");
    }
    b.put("consecutive_failures", breaker.failures());
    QueueStats stats = lineup.stats(key.queue());
    ObjectNode tasks = view.putObject("tasks");
    tasks.put("queued", stats.ready() + stats.delayed());
    tasks.put("running", stats.leased());
    tasks.put("failed", stats.dead());
    tasks.put("finished_kept", stats.finished());
    view.put("service_rate", stats.serviceRate());
    view.put("queue", key.queue().toString());
    return view;
  }

  /**
   * Refuses a URL being registered that the egress policy would never let a request reach, or whose
   * port is out of range.
   *
   * @throws ApiException 400 {@code egress_refused} (or {@code invalid_field} for the port) naming
   *     the field, with the reason
   */
  private void checkEgress(String field, URI url) {
    if (url.getPort() == 0 || url.getPort() > 65_535) {
      throw ApiException.invalidField(field, "must have a port from 1 to 65535");
    }
    try {
      egressPolicy.checkRegistration(url);
    } catch (EgressRefusedException refused) {
      throw new ApiException(
              io.lineup.api.ErrorCode.EGRESS_REFUSED,
              field,
              refused.getMessage()
                  + ": the server's egress policy does not allow it (an operator can allow it"
                  + " with LINEUP_EGRESS_ALLOW)")
          .with("reason", refused.getMessage());
    }
  }

  // ---- circuit breakers ----

  /**
   * Decides whether a leased task may be sent, as far as the endpoint's breaker goes: returns false
   * to send it as usual, true when it is the one probe of a half-open breaker (claimed for every
   * instance; the caller reports its outcome or {@link #dropProbe}s it).
   *
   * <p>Redis is read only when this instance's view may be out of date: a closed breaker read less
   * than half a cool-down ago cannot have opened and become half open since, so it is trusted.
   *
   * @throws ReleaseJobException when the breaker is open or another task holds the probe: the task
   *     goes back to its place in line unsent and its attempt is not counted
   */
  boolean admit(EndpointKey key, String task, EndpointSpec spec) {
    if (spec.breakerFailures() == 0) {
      return false;
    }
    Breakers.Seen seen = breakers.seen(key);
    if (seen.state().state() == BreakerState.State.CLOSED
        && seen.ageMs() < spec.breakerCooldownMs() / 2) {
      return false;
    }
    long now = System.currentTimeMillis();
    BreakerState current = breakers.read(key);
    if (current.state() == BreakerState.State.OPEN && now >= current.openUntil()) {
      current = changeBreaker(key, spec, b -> b.halfOpenIfDue(now)).after();
    }
    switch (current.state()) {
      case CLOSED -> {
        return false;
      }
      case HALF_OPEN -> {
        long until = now + spec.attemptTimeoutMs() + LEASE_MARGIN_MS + 1000;
        BreakerState claimed =
            changeBreaker(key, spec, b -> b.probeFree(task, now) ? b.probing(task, until) : b)
                .after();
        if (claimed.state() == BreakerState.State.HALF_OPEN && claimed.probe().equals(task)) {
          LOG.info("Endpoint {}: circuit breaker half open, task {} is the probe", key, task);
          return true;
        }
        current = claimed;
      }
      case OPEN -> {
        // Leased although open: another instance's settings landed late. Put the queue right.
      }
    }
    applySettings(key, spec, current, true);
    throw new ReleaseJobException("circuit breaker " + current.json());
  }

  /** A probe claimed by {@link #admit} was not sent after all: another task may probe. */
  void dropProbe(EndpointKey key, String task, EndpointSpec spec) {
    changeBreaker(key, spec, b -> b.withoutProbe(task));
  }

  /** A failed attempt (connection error, timeout, 429, 5xx): counted for every instance. */
  void breakerFailure(EndpointKey key, EndpointSpec spec) {
    if (spec.breakerFailures() == 0) {
      return;
    }
    long now = System.currentTimeMillis();
    Breakers.Change change =
        changeBreaker(
            key, spec, b -> b.afterFailure(spec.breakerFailures(), spec.breakerCooldownMs(), now));
    if (change.moved() && change.after().state() == BreakerState.State.OPEN) {
      LOG.warn(
          "Endpoint {}: {} consecutive failed attempts, circuit breaker open for {} ms",
          key,
          change.after().failures(),
          spec.breakerCooldownMs());
    }
  }

  /**
   * An answer that shows the endpoint up: the count starts again and a half-open breaker closes.
   * Writes only when this instance knows of failures or a breaker not closed, so a healthy endpoint
   * costs no Redis call per task.
   */
  void breakerSuccess(EndpointKey key, EndpointSpec spec) {
    if (spec.breakerFailures() == 0 || breakers.seen(key).state().isClean()) {
      return;
    }
    changeBreaker(key, spec, BreakerState::afterSuccess);
  }

  /** Changes the breaker for every instance; when its state moved, the queue's settings follow. */
  private Breakers.Change changeBreaker(
      EndpointKey key, EndpointSpec spec, java.util.function.UnaryOperator<BreakerState> change) {
    Breakers.Change done = breakers.change(key, change);
    if (done.moved()) {
      applySettings(key, spec, done.after(), true);
      LOG.info("Endpoint {}: circuit breaker {}", key, done.after().json());
    }
    return done;
  }

  /**
   * The breaker of every endpoint this instance follows, as it last read or set them, by namespace
   * and endpoint name.
   */
  public Map<EndpointKey, BreakerState> breakers() {
    Map<EndpointKey, BreakerState> all = new java.util.HashMap<>();
    breakers.known().forEach((id, state) -> all.put(EndpointKey.ofRecordId(id), state));
    return all;
  }

  /**
   * The endpoint's limits in its queue's settings, where the engine checks them atomically in its
   * lease script: an open breaker pauses the queue, a half-open one lets one request run at once.
   */
  private void applySettings(
      EndpointKey key, EndpointSpec spec, BreakerState breaker, boolean force) {
    BreakerState.State state =
        spec.breakerFailures() == 0 ? BreakerState.State.CLOSED : breaker.state();
    boolean paused = spec.paused() || state == BreakerState.State.OPEN;
    int concurrency = state == BreakerState.State.HALF_OPEN ? 1 : spec.concurrency();
    String signature = spec.toJson().toString() + "|" + paused + "|" + concurrency;
    if (!force && signature.equals(applied.get(key.recordId()))) {
      return;
    }
    lineup.configure(
        key.queue(),
        QueueSettings.builder()
            .paused(paused)
            .rateLimit(spec.rate())
            .ratePeriod(Duration.ofMillis(spec.enginePeriodMs()))
            .rateBurst(spec.effectiveBurst())
            .concurrencyLimit(concurrency)
            .maxAttempts(spec.maxAttempts())
            .timeToRun(Duration.ofMillis(spec.attemptTimeoutMs() + LEASE_MARGIN_MS))
            .retention(Duration.ofMillis(spec.retentionMs()))
            // The engine's ETA uses it until it has measured completions; 0 clears it.
            .expectedServiceTime(
                Duration.ofMillis(spec.expectedServiceMs() == null ? 0 : spec.expectedServiceMs()))
            .build());
    applied.put(key.recordId(), signature);
    submitEtas.forget(key.queue());
  }

  // ---- the sync loop ----

  private void syncLoop() {
    while (!closed) {
      try {
        Thread.sleep(SYNC_INTERVAL_MS);
      } catch (InterruptedException e) {
        return;
      }
      syncQuietly();
    }
  }

  private void syncQuietly() {
    if (closed) {
      return;
    }
    try {
      sync();
    } catch (RuntimeException e) {
      LOG.warn("Could not read the dispatch endpoints: {}", e.getMessage());
    }
  }

  /** Brings this instance's dispatchers and breakers in line with what Redis holds. */
  private synchronized void sync() {
    Map<String, String> stored = endpointRecords.all();
    Map<String, BreakerState> storedBreakers = breakers.readAll(stored.keySet());
    long now = System.currentTimeMillis();
    for (var entry : stored.entrySet()) {
      String id = entry.getKey();
      EndpointKey key = EndpointKey.ofRecordId(id);
      EndpointSpec spec;
      try {
        spec = EndpointSpec.parse(parseRecord(entry.getValue()).get("spec"));
      } catch (RuntimeException e) {
        LOG.warn("Endpoint {} has settings this server cannot read: {}", id, e.getMessage());
        continue;
      }
      BreakerState breaker = storedBreakers.get(id);
      if (spec.breakerFailures() > 0
          && breaker.state() == BreakerState.State.OPEN
          && now >= breaker.openUntil()) {
        // The cool-down is over: let one probe through. Every instance may try; the replace lets
        // exactly one move it, and the others read the half-open breaker it stored.
        breaker = changeBreaker(key, spec, b -> b.halfOpenIfDue(now)).after();
      }
      applySettings(key, spec, breaker, false);
      dispatchers.computeIfAbsent(id, x -> new EndpointDispatcher(this, key, spec)).update(spec);
    }
    for (String id : List.copyOf(dispatchers.keySet())) {
      if (!stored.containsKey(id)) {
        EndpointDispatcher gone = dispatchers.remove(id);
        applied.remove(id);
        submitEtas.forget(gone.key().queue());
        Thread.ofVirtual().start(gone::close);
      }
    }
    callbacks.sync(stored.keySet());
  }

  // ---- tasks ----

  /**
   * What a submit did.
   *
   * @param created false when the idempotency key matched an earlier task, which is answered
   * @param view the task as it stands
   */
  public record Submitted(boolean created, ObjectNode view) {}

  /**
   * Submits a task.
   *
   * @throws ApiException 404 for an unknown endpoint, 400/403/413 for bad input (nothing queued)
   */
  public Submitted submit(EndpointKey key, JsonNode body, Principal principal) {
    EndpointSpec spec = spec(key);
    TaskSubmission task =
        TaskSubmission.parse(
            body, spec, principal, maxTaskBodyBytes, () -> callbackSettings(key.namespace()));
    NewJob job = NewJob.of(task.request().encode()).priority(task.priority());
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
    job.ttl(Duration.ofMillis(recordBound(spec, waitBefore)));
    archive.beforePublish(key.queue());
    PublishResult result = lineup.publish(key.queue(), job);
    if (!result.created()) {
      // A repeat of an idempotency key answers the first task as it stands.
      ObjectNode first =
          lineup
              .get(key.queue(), result.id())
              .map(info -> TaskViews.task(key, info))
              .orElseGet(() -> TaskViews.published(key, result));
      return new Submitted(false, first);
    }
    // A paused endpoint (or an open breaker) gives no ETA, as a read of the task would say; the
    // estimator may be up to SubmitEtas.MAX_AGE_MS older than a pause on another instance.
    boolean stopped =
        spec.paused()
            || (spec.breakerFailures() > 0
                && breakers.seen(key).state().state() != BreakerState.State.CLOSED);
    Eta eta = stopped ? null : submitEtas.eta(key.queue(), result.position()).orElse(null);
    return new Submitted(true, TaskViews.submitted(key, task, spec, result, eta));
  }

  /**
   * How long a task's record may live in Redis before the engine drops it (state {@code
   * timed_out}): its delay, its line timeout, every attempt with its longest wait, and a grace.
   */
  static long recordBound(EndpointSpec spec, long waitBefore) {
    long perAttempt =
        spec.attemptTimeoutMs()
            + LEASE_MARGIN_MS
            + Math.max(
                spec.retryAfterCapMs(),
                Math.max(spec.backoff().maxMs(), spec.backoff().longestScheduledMs()));
    long bound =
        waitBefore + spec.lineTimeoutMs() + spec.maxAttempts() * perAttempt + RECORD_GRACE_MS;
    return Math.min(bound, io.lineup.core.model.Limits.MAX_DELAY_MS);
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
   * @param callerRead whether the reader is the task's caller (its answer starts the read grace);
   *     false for a look that must not shorten the record's life (the dashboard, a read token)
   * @throws ApiException 404 when the endpoint or the task is unknown
   */
  public ObjectNode task(EndpointKey key, String id, long waitMs, boolean callerRead)
      throws InterruptedException {
    EndpointSpec spec = spec(key);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
    while (true) {
      CompletableFuture<Void> end =
          waitMs > 0 ? ends.computeIfAbsent(key.taskKey(id), k -> new CompletableFuture<>()) : null;
      // Redis first; a task whose record is gone is answered from the archive (when it is on).
      JobInfo info =
          archive
              .find(key.queue(), id)
              .orElseThrow(
                  () -> ApiException.notFound("no task " + id + " at endpoint " + key.name()));
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (TaskViews.finished(info) || left <= 0) {
        if (end != null) {
          ends.remove(key.taskKey(id), end);
        }
        if (callerRead && TaskViews.finished(info)) {
          // Its caller has the result now, so the record need not stay the whole retention
          // window: it goes after the endpoint's read grace (a failed task, a dead letter, is
          // not in the finished line and keeps its record bound).
          lineup.shortenRetention(key.queue(), id, Duration.ofMillis(spec.readGraceMs()));
        }
        return TaskViews.task(key, info);
      }
      try {
        end.get(Math.min(left, WAIT_POLL_MS), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
        // Read it again: it may have ended on another instance.
      }
    }
  }

  /** Most dead tasks in one page of {@link #deadTasks}. */
  public static final int MAX_DEAD_PAGE = 100;

  /**
   * A page of an endpoint's tasks that ran out of attempts, oldest death first, each as {@code GET}
   * of the task shows it (no headers or body of the request). Reading them starts no read grace.
   *
   * @param count 1 to {@link #MAX_DEAD_PAGE}
   * @throws ApiException 404 for an unknown endpoint
   */
  public ObjectNode deadTasks(EndpointKey key, int offset, int count) {
    spec(key);
    io.lineup.core.model.DeadPage page = lineup.deadLetters(key.queue(), offset, count);
    ObjectNode answer = Json.object();
    answer.put("endpoint", key.name());
    answer.put("total", page.total());
    var tasks = answer.putArray("tasks");
    for (io.lineup.core.model.DeadJob job : page.jobs()) {
      lineup.get(key.queue(), job.id()).ifPresent(info -> tasks.add(TaskViews.task(key, info)));
    }
    return answer;
  }

  /**
   * Cancels a task: a queued one is never sent; a running one has its request aborted (at once on
   * this instance, within half its lease on another) and its result discarded.
   *
   * @return the state before
   * @throws io.lineup.core.model.JobNotFoundException when unknown
   * @throws io.lineup.core.model.JobFinishedException when it has ended
   */
  public JobState cancel(EndpointKey key, String id) {
    spec(key);
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
    ObjectNode record = Json.object();
    record.put("outcome", Outcome.CANCELLED.json());
    record.putNull("error");
    record.set("attempts", Attempt.toJson(Attempt.parseHistory(task.lastError())));
    record.putNull("response");
    callbacks.enqueue(key, task.id(), request, record, Callbacks.CANCELLED);
  }

  /**
   * A task's record as stored: in Redis, or in the archive once its Redis record is gone. Reading
   * it here does not start its read grace.
   */
  Optional<JobInfo> findTask(EndpointKey key, String id) {
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
   * A dispatcher ended a task: wake its long-polls and queue its callback.
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
      // After the ack lands: the long-poll reads the task again and sees it finished.
      CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS).execute(() -> end.complete(null));
    }
  }

  // ---- callback settings ----

  /** The namespace's callback settings (none when never set). */
  public CallbackSettings callbackSettings(String namespace) {
    return callbackRecords
        .get(namespace)
        .map(CallbackSettings::fromStored)
        .orElse(CallbackSettings.none());
  }

  /** Stores the namespace's callback settings. */
  void storeCallbackSettings(String namespace, CallbackSettings settings) {
    callbackRecords.put(namespace, settings.stored());
  }

  /**
   * Sets a namespace's allowed callback prefixes from {@code {allowed_prefixes, rotate_secret}}.
   * The first call makes a signing secret; {@code rotate_secret: true} makes a new one and keeps
   * the previous one (both sign) until the next rotation. A new secret is in this answer only.
   *
   * @throws ApiException 400 naming the field that is wrong
   */
  public ObjectNode putCallbackSettings(String namespace, JsonNode body) {
    var f =
        io.lineup.server.http.JsonFields.of(
            body, "", java.util.Set.of("allowed_prefixes", "rotate_secret"));
    List<String> prefixes = CallbackSettings.parsePrefixes(f.raw("allowed_prefixes"));
    for (int i = 0; i < prefixes.size(); i++) {
      checkEgress("allowed_prefixes[" + i + "]", URI.create(prefixes.get(i)));
    }
    Boolean rotate = f.optionalBoolean("rotate_secret");
    CallbackSettings current = callbackSettings(namespace);
    List<String> secrets = new ArrayList<>(current.secrets());
    String fresh = null;
    if (secrets.isEmpty() || Boolean.TRUE.equals(rotate)) {
      fresh = WebhookSignature.newSecret();
      secrets.add(0, fresh);
      while (secrets.size() > CallbackSettings.MAX_SECRETS) {
        secrets.remove(secrets.size() - 1);
      }
    }
    storeCallbackSettings(namespace, new CallbackSettings(prefixes, List.copyOf(secrets)));
    return callbackView(namespace, fresh);
  }

  /** The callback settings as the API shows them; {@code secret} only when just made. */
  public ObjectNode callbackView(String namespace, String freshSecret) {
    CallbackSettings settings = callbackSettings(namespace);
    ObjectNode view = Json.object();
    view.put("namespace", namespace);
    var p = view.putArray("allowed_prefixes");
    settings.allowedPrefixes().forEach(p::add);
    view.put("secrets", settings.secrets().size());
    if (freshSecret != null) {
      view.put("secret", freshSecret);
    }
    return view;
  }

  /** Stops the dispatchers (their running requests finish or go back in line) and callbacks. */
  @Override
  public void close() {
    closed = true;
    if (syncer != null) {
      syncer.interrupt();
    }
    synchronized (this) {
      List<Thread> closing = new ArrayList<>();
      for (EndpointDispatcher d : dispatchers.values()) {
        closing.add(Thread.ofVirtual().start(d::close));
      }
      closing.add(Thread.ofVirtual().start(callbacks::close));
      for (Thread t : closing) {
        try {
          t.join(Duration.ofSeconds(15));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      dispatchers.clear();
    }
    egress.close();
  }
}
