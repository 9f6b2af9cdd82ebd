package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.TraceContext;
import io.lineup.api.resource.DeadPage;
import io.lineup.api.resource.Job;
import io.lineup.api.resource.LeasedJob;
import io.lineup.api.resource.PublishResult;
import io.lineup.api.resource.QueueStats;
import io.lineup.consumer.JobHandler;
import io.lineup.consumer.WorkerOptions;
import io.lineup.consumer.observation.ObservationSettings;
import io.lineup.consumer.observation.ProcessObservationConvention;
import io.lineup.consumer.observation.PublishObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A client for the Lineup HTTP API v1: publish and read jobs, lease and settle them, read and
 * configure queues, handle dead letters, and (with the admin token) manage namespaces and tokens
 * through {@link #admin()}; API dispatch (endpoints and tasks) through {@link #dispatch()}, and
 * waiting rooms (tickets, passes, grants) through {@link #rooms()}, recurring schedules through
 * {@link #schedules()}, the fairness keys of fair queues through {@link #keys()}. {@link #worker}
 * runs a handler over long-poll leases, the same shape as the embedded engine's worker.
 *
 * <pre>{@code
 * try (LineupClient client = LineupClient.connect("http://127.0.0.1:7700", token)) {
 *   client.publish(QueueName.of("shop", "close-unpaid"), NewJob.ofJson("{\"order\":42}"));
 * }
 * }</pre>
 *
 * <p>One instance is safe to share between threads and reuses its connections: make one per server
 * and close it at the end. Every method throws a subclass of {@link LineupClientException} for an
 * error answer ({@link NotFoundException}, {@link LeaseLostException}, ...) and {@link
 * ServerUnreachableException} when no answer came within the request timeout.
 */
public final class LineupClient implements AutoCloseable {
  /** How long a connection may take to open, unless the builder says otherwise: 5 s. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * How long a call may wait for its answer, unless the builder says otherwise: 30 s. A lease waits
   * this long on top of its own wait.
   */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  /** Longest wait of one lease call, as the server allows: 300 s. */
  public static final Duration MAX_LEASE_WAIT = Duration.ofMillis(300_000);

  /** Most jobs in one bulk publish or one lease, as the server allows. */
  public static final int MAX_BATCH = 1000;

  private final Transport transport;
  private final HttpClient http;
  private final ExecutorService executor;
  private final Duration requestTimeout;
  private final AdminClient admin;
  private final DispatchClient dispatch;
  private final RoomsClient rooms;
  private final SchedulesClient schedules;
  private final KeysClient keys;
  private final ObservationSettings observation;

  private LineupClient(Builder builder) {
    // Virtual threads carry the HTTP client's work, so a thousand long-polls cost no platform
    // thread each.
    this.executor = Executors.newVirtualThreadPerTaskExecutor();
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(builder.connectTimeout)
            .executor(executor)
            .build();
    this.requestTimeout = builder.requestTimeout;
    this.transport = new Transport(http, builder.baseUrl, builder.token, builder.requestTimeout);
    this.admin = new AdminClient(transport);
    this.dispatch = new DispatchClient(transport, builder.requestTimeout);
    this.rooms = new RoomsClient(transport, builder.requestTimeout);
    this.schedules = new SchedulesClient(transport);
    this.keys = new KeysClient(transport);
    this.observation =
        new ObservationSettings(
            builder.observationRegistry,
            builder.observationTenantTags,
            builder.publishObservationConvention,
            builder.processObservationConvention);
  }

  /**
   * A client for the server at this address (e.g. {@code http://127.0.0.1:7700}) with this token,
   * and the default timeouts.
   *
   * @param token the admin token or a namespace token; null for the routes that need none
   * @throws IllegalArgumentException when the address is not an http or https URL
   */
  public static LineupClient connect(String baseUrl, String token) {
    return builder(baseUrl).token(token).build();
  }

  /**
   * A builder for a client of the server at this address.
   *
   * @throws IllegalArgumentException when the address is not an http or https URL
   */
  public static Builder builder(String baseUrl) {
    return new Builder(baseUrl);
  }

  /** Settings of a client: token and timeouts. */
  public static final class Builder {
    private final String baseUrl;
    private String token;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
    private boolean observationTenantTags;
    private PublishObservationConvention publishObservationConvention;
    private ProcessObservationConvention processObservationConvention;

    private Builder(String baseUrl) {
      Objects.requireNonNull(baseUrl, "baseUrl");
      String trimmed = baseUrl.strip();
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      if (!trimmed.startsWith("http://") && !trimmed.startsWith("https://")) {
        throw new IllegalArgumentException(
            "the server address must start with http:// or https://, e.g. http://127.0.0.1:7700;"
                + " got '"
                + baseUrl
                + "'");
      }
      this.baseUrl = trimmed;
    }

    /** The bearer token sent with every call: the admin token or a namespace token. */
    public Builder token(String token) {
      this.token = token == null || token.isBlank() ? null : token.strip();
      return this;
    }

    /** How long opening a connection may take; default {@link #DEFAULT_CONNECT_TIMEOUT}. */
    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    /**
     * How long a call may wait for its answer; default {@link #DEFAULT_REQUEST_TIMEOUT}. A lease
     * waits this long on top of its own wait.
     */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout, "requestTimeout");
      return this;
    }

    /**
     * The registry that observes publishes ({@code lineup.publish}, a producer span whose W3C trace
     * context goes to the server in the {@code traceparent} header and is stored with the jobs) and
     * the jobs remote workers handle ({@code lineup.process}, a consumer span continuing it).
     * {@link ObservationRegistry#NOOP} by default: nothing is observed.
     *
     * @throws NullPointerException when null
     */
    public Builder observationRegistry(ObservationRegistry registry) {
      this.observationRegistry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /**
     * Whether observations carry the queue's namespace as a low-cardinality tag ({@code
     * lineup.namespace}); off by default, as it multiplies the metric series by the tenants.
     */
    public Builder observationTenantTags(boolean on) {
      this.observationTenantTags = on;
      return this;
    }

    /** Replaces the default names and tags of publish observations; null for the default. */
    public Builder publishObservationConvention(PublishObservationConvention convention) {
      this.publishObservationConvention = convention;
      return this;
    }

    /** Replaces the default names and tags of process observations; null for the default. */
    public Builder processObservationConvention(ProcessObservationConvention convention) {
      this.processObservationConvention = convention;
      return this;
    }

    /** The client. */
    public LineupClient build() {
      return new LineupClient(this);
    }

    private static Duration positive(Duration value, String name) {
      if (value == null || value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive; got " + value);
      }
      return value;
    }
  }

  /** The server's address, without a trailing slash. */
  public String baseUrl() {
    return transport.baseUrl();
  }

  /** Namespaces and tokens; the admin token only. */
  public AdminClient admin() {
    return admin;
  }

  /** API dispatch: endpoints and their tasks. */
  public DispatchClient dispatch() {
    return dispatch;
  }

  /** Waiting rooms: rooms, tickets, passes and grants. */
  public RoomsClient rooms() {
    return rooms;
  }

  /** Recurring schedules of queues (a job per tick) and of endpoints (a task per tick). */
  public SchedulesClient schedules() {
    return schedules;
  }

  /**
   * One queue's jobs by state: lists with cursor paging and filters, and cancel, delete, run now
   * and respawn by ids or by filter ({@link JobsClient}).
   */
  public JobsClient jobs(QueueName queue) {
    return new JobsClient(transport, queue);
  }

  /** The fairness keys of fair queues: their counts, own settings, pause and waiting jobs. */
  public KeysClient keys() {
    return keys;
  }

  private static String queuePath(QueueName queue) {
    return "/v1/queues/"
        + Transport.segment(queue.namespace())
        + "/"
        + Transport.segment(queue.name());
  }

  private static String jobPath(QueueName queue, String id) {
    return queuePath(queue) + "/jobs/" + Transport.segment(Objects.requireNonNull(id, "id"));
  }

  // ---- jobs

  /**
   * Publishes one job (scope {@code publish}).
   *
   * @return the job's id, whether it was created (false when its id or unique key matched an
   *     existing job), its state, due time and position
   * @throws InvalidRequestException when a field is out of range ({@link
   *     LineupClientException#field()} names it)
   * @throws ForbiddenException when the token may not publish here, or the priority is above its
   *     maximum ({@code priority_not_allowed})
   * @throws PayloadTooLargeException when the payload is over the server's limit
   */
  public PublishResult publish(QueueName queue, NewJob job) {
    return ClientPublishObservation.around(
            observation,
            queue,
            List.of(job),
            () -> {
              JsonNode answer =
                  transport
                      .post(queuePath(queue) + "/jobs", job.toJson(), traceHeaders(List.of(job)))
                      .body();
              return List.of(Json.read(answer, PublishResult.class));
            })
        .get(0);
  }

  /**
   * Publishes 1 to {@value #MAX_BATCH} jobs atomically in one call: all are written, or none (when
   * one is bad the exception's field names it, e.g. {@code jobs[3].priority}).
   *
   * @return one result per job, in the order given
   * @throws IllegalArgumentException when the list is empty or longer than {@value #MAX_BATCH}
   */
  public List<PublishResult> publishAll(QueueName queue, List<NewJob> jobs) {
    if (jobs.isEmpty() || jobs.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "a bulk publish takes 1 to " + MAX_BATCH + " jobs; got " + jobs.size());
    }
    return ClientPublishObservation.around(
        observation,
        queue,
        jobs,
        () -> {
          ArrayNode body = Json.array();
          jobs.forEach(job -> body.add(job.toJson()));
          JsonNode answer =
              transport.post(queuePath(queue) + "/jobs", body, traceHeaders(jobs)).body();
          List<PublishResult> results = new ArrayList<>(jobs.size());
          answer.forEach(item -> results.add(Json.read(item, PublishResult.class)));
          return List.copyOf(results);
        });
  }

  /**
   * The trace headers of a publish: the first traceparent the jobs carry, with its tracestate (the
   * server stores one context per request, with every job of it).
   */
  private static Map<String, String> traceHeaders(List<NewJob> jobs) {
    for (NewJob job : jobs) {
      if (job.traceparent() != null) {
        return job.tracestate() == null
            ? Map.of(TraceContext.TRACEPARENT, job.traceparent())
            : Map.of(
                TraceContext.TRACEPARENT,
                job.traceparent(),
                TraceContext.TRACESTATE,
                job.tracestate());
      }
    }
    return Map.of();
  }

  /**
   * The job as it stands: state, attempts, times, result, position and ETA (any scope).
   *
   * @throws NotFoundException when the queue has no such job (or its record passed the retention)
   */
  public Job get(QueueName queue, String id) {
    return Json.read(transport.get(jobPath(queue, id)).body(), Job.class);
  }

  /**
   * Cancels a job that has not finished (scope {@code publish} or {@code manage}); a leased job's
   * holder loses its lease.
   *
   * @throws NotFoundException when there is no such job
   * @throws JobFinishedException when it already finished ({@link JobFinishedException#state()})
   */
  public CancelResult cancel(QueueName queue, String id) {
    return CancelResult.read(transport.delete(jobPath(queue, id)).body());
  }

  // ---- leases

  /**
   * Leases up to {@code count} ready jobs of one queue, waiting up to {@code wait} for the first
   * (scope {@code consume}). Returns as soon as a job is ready.
   *
   * @param count 1 to {@value #MAX_BATCH}
   * @param wait 0 to {@link #MAX_LEASE_WAIT}; millisecond precision
   * @return the leased jobs; empty when none came in time or the queue is paused
   * @throws LeaseRefusedException when a rate or concurrency limit refused the lease for the whole
   *     wait ({@link LeaseRefusedException#retryAfter()} says when to try again)
   */
  public List<LeasedJob> lease(QueueName queue, int count, Duration wait) {
    return lease(List.of(queue), count, wait);
  }

  /**
   * Leases from the first of up to 16 queues of one namespace that has jobs, in the order given.
   *
   * @throws IllegalArgumentException when the list is empty, longer than 16 or spans namespaces
   * @see #lease(QueueName, int, Duration)
   */
  public List<LeasedJob> lease(List<QueueName> queues, int count, Duration wait) {
    if (queues.isEmpty() || queues.size() > 16) {
      throw new IllegalArgumentException("a lease takes 1 to 16 queues; got " + queues.size());
    }
    String namespace = queues.get(0).namespace();
    StringBuilder names = new StringBuilder();
    for (QueueName queue : queues) {
      if (!queue.namespace().equals(namespace)) {
        throw new IllegalArgumentException(
            "the queues of one lease must share a namespace; got " + queues);
      }
      names.append(names.isEmpty() ? "" : ",").append(Transport.segment(queue.name()));
    }
    if (wait.isNegative() || wait.compareTo(MAX_LEASE_WAIT) > 0) {
      throw new IllegalArgumentException("a lease waits 0 to 300 s; got " + wait);
    }
    ObjectNode body = Json.object();
    body.put("count", count);
    body.put("wait_ms", wait.toMillis());
    String path = "/v1/queues/" + Transport.segment(namespace) + "/" + names + "/leases";
    Transport.Reply reply = transport.send("POST", path, body, wait.plus(requestTimeout));
    if (reply.status() == 204 || reply.body() == null) {
      return List.of();
    }
    List<LeasedJob> jobs = new ArrayList<>();
    reply.body().path("jobs").forEach(item -> jobs.add(Json.read(item, LeasedJob.class)));
    return List.copyOf(jobs);
  }

  /**
   * Acknowledges a leased job: it is done (scope {@code consume}). Repeating the ack of the same
   * lease succeeds.
   *
   * @param resultJson one JSON value kept with the job for the queue's retention, or null
   * @throws LeaseLostException when the token no longer holds the job ({@link
   *     LeaseLostException#reason()} says why)
   * @throws IllegalArgumentException when the result is not one JSON value
   */
  public void ack(LeasedJob job, String resultJson) {
    ack(QueueName.parse(job.queue()), job.id(), job.token(), resultJson);
  }

  /**
   * Acknowledges a job by queue, id and lease token.
   *
   * @see #ack(LeasedJob, String)
   */
  public void ack(QueueName queue, String id, String token, String resultJson) {
    ObjectNode body = Json.object();
    body.put("token", token);
    if (resultJson != null) {
      body.set("result", Json.parse(resultJson));
    }
    transport.post(jobPath(queue, id) + "/ack", body);
  }

  /**
   * Reports a failed attempt (scope {@code consume}): the job is retried after {@code retryDelay},
   * or the queue's backoff when null, or goes to dead letters when it was its last attempt.
   *
   * @param error why it failed (the first 4096 characters are kept), or null
   * @throws LeaseLostException when the token no longer holds the job
   */
  public NackResult nack(LeasedJob job, String error, Duration retryDelay) {
    return nack(QueueName.parse(job.queue()), job.id(), job.token(), error, retryDelay);
  }

  /**
   * Reports a failed attempt by queue, id and lease token.
   *
   * @see #nack(LeasedJob, String, Duration)
   */
  public NackResult nack(
      QueueName queue, String id, String token, String error, Duration retryDelay) {
    ObjectNode body = Json.object();
    body.put("token", token);
    if (error != null) {
      body.put("error", error);
    }
    if (retryDelay != null) {
      body.put("retry_delay_ms", retryDelay.toMillis());
    }
    return NackResult.read(transport.post(jobPath(queue, id) + "/nack", body).body());
  }

  /**
   * Moves the lease deadline to {@code ttr} from now (scope {@code consume}).
   *
   * @param ttr 100 ms to 24 h, or null for the job's own time-to-run
   * @return the new deadline, Redis server time
   * @throws LeaseLostException when the token no longer holds the job
   */
  public Instant extend(LeasedJob job, Duration ttr) {
    return extend(QueueName.parse(job.queue()), job.id(), job.token(), ttr);
  }

  /**
   * Extends a lease by queue, id and lease token.
   *
   * @see #extend(LeasedJob, Duration)
   */
  public Instant extend(QueueName queue, String id, String token, Duration ttr) {
    ObjectNode body = Json.object();
    body.put("token", token);
    if (ttr != null) {
      body.put("ttr_ms", ttr.toMillis());
    }
    return Json.time(
        transport.post(jobPath(queue, id) + "/extend", body).body(), "lease_deadline_at");
  }

  // ---- queues

  /** The queues this token may see: every queue for the admin, its namespace's for a token. */
  public List<QueueName> queues() {
    List<QueueName> queues = new ArrayList<>();
    transport
        .get("/v1/queues")
        .body()
        .path("queues")
        .forEach(item -> queues.add(QueueName.parse(Json.text(item, "queue"))));
    return List.copyOf(queues);
  }

  /**
   * A queue's counts, service rate, settings and counters (any scope).
   *
   * @throws NotFoundException when the queue was never published to or configured
   */
  public QueueStats stats(QueueName queue) {
    return Json.read(transport.get(queuePath(queue)).body(), QueueStats.class);
  }

  /**
   * Changes a queue's settings (scope {@code manage}); takes effect at once on every instance. A
   * change to a new queue creates it.
   *
   * @return the queue after the change
   * @throws InvalidRequestException when a value is out of range (the field names it) or the change
   *     is empty
   */
  public QueueStats configure(QueueName queue, SettingsChange change) {
    return Json.read(transport.patch(queuePath(queue), change.toJson()).body(), QueueStats.class);
  }

  /** Stops leases from the queue (publishing still works); scope {@code manage}. */
  public QueueStats pause(QueueName queue) {
    return configure(queue, SettingsChange.create().paused(true));
  }

  /** Lets leases from the queue go on; scope {@code manage}. */
  public QueueStats resume(QueueName queue) {
    return configure(queue, SettingsChange.create().paused(false));
  }

  // ---- dead letters

  /**
   * A page of the queue's dead letters, oldest death first (scope {@code manage}).
   *
   * @param offset 0 to 10^9
   * @param count 1 to 1000
   * @throws NotFoundException when the queue is unknown
   */
  public DeadPage deadLetters(QueueName queue, long offset, int count) {
    return Json.read(
        transport.get(queuePath(queue) + "/dead?offset=" + offset + "&count=" + count).body(),
        DeadPage.class);
  }

  /**
   * Puts these dead jobs back in line at attempt 1 (scope {@code manage}).
   *
   * @param ids 1 to 1000 ids
   * @return how many were respawned (ids not in dead letters are skipped)
   */
  public long respawn(QueueName queue, List<String> ids) {
    ObjectNode body = Json.object();
    ArrayNode list = body.putArray("ids");
    ids.forEach(list::add);
    return respawnWith(queue, body);
  }

  /** Puts the {@code count} oldest dead jobs back in line; answers how many. */
  public long respawnOldest(QueueName queue, long count) {
    ObjectNode body = Json.object();
    body.put("count", count);
    return respawnWith(queue, body);
  }

  /** Puts every dead job back in line; answers how many. */
  public long respawnAll(QueueName queue) {
    ObjectNode body = Json.object();
    body.put("all", true);
    return respawnWith(queue, body);
  }

  private long respawnWith(QueueName queue, ObjectNode body) {
    return transport
        .post(queuePath(queue) + "/dead/respawn", body)
        .body()
        .path("respawned")
        .asLong();
  }

  /** Deletes every dead letter of the queue (scope {@code manage}); answers how many. */
  public long purgeDead(QueueName queue) {
    return transport.delete(queuePath(queue) + "/dead").body().path("purged").asLong();
  }

  // ---- system

  /**
   * Whether the server is ready: it answers and reaches Redis ({@code GET /ready}).
   *
   * @return true when ready; false when it answered 503 (Redis unreachable, shutting down)
   * @throws ServerUnreachableException when it does not answer
   */
  public boolean ready() {
    try {
      transport.get("/ready");
      return true;
    } catch (ServiceUnavailableException e) {
      return false;
    }
  }

  /** The Prometheus metrics text ({@code GET /metrics}). */
  public String metrics() {
    return transport.getText("/metrics");
  }

  // ---- workers

  /**
   * A worker that runs {@code handler} for the jobs of a queue over long-poll leases, {@link
   * WorkerOptions#concurrency()} at a time, extending leases while handlers run. Call {@link
   * RemoteWorker#start()}; close it to stop. The same shape as the embedded engine's {@code
   * Lineup.worker}.
   *
   * @throws IllegalArgumentException when an option is out of the client's bounds ({@link
   *     WorkerOptions}); the idle wait at most 300 s, one long-poll
   */
  public RemoteWorker worker(
      QueueName queue, JobHandler<LeasedJob> handler, WorkerOptions options) {
    return new RemoteWorker(this, queue, handler, options, observation);
  }

  /** Closes the connections. Calls in progress fail. */
  @Override
  public void close() {
    http.shutdownNow();
    executor.shutdownNow();
  }
}
