package io.lineup.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.Backoff;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.dispatch.egress.EgressRefusedException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls callers back when their tasks end: each callback is a job in its namespace's {@value
 * #QUEUE_NAME} queue, POSTed signed the Standard Webhooks way, retried with backoff and
 * dead-lettered when it keeps failing.
 */
final class Callbacks implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Callbacks.class);

  /** The queue of a namespace's callbacks. */
  static final String QUEUE_NAME = "dispatch-callbacks";

  /** Deliveries of one callback before it is dead-lettered. */
  static final int MAX_ATTEMPTS = 10;

  /** Waits between deliveries: exponential from 1 s to 10 min, 20 % jitter. */
  static final Backoff BACKOFF =
      new Backoff(Backoff.Kind.EXPONENTIAL, Duration.ofSeconds(1), Duration.ofMinutes(10), 0.2);

  /** Time a delivery's answer may take to start (its headers): 10 s. */
  static final Duration TIMEOUT = Duration.ofSeconds(10);

  /** Most bytes of a callback's answer read (and dropped); a longer answer ends its connection. */
  static final int MAX_ANSWER_BYTES = 64 * 1024;

  /** Callbacks sent at once per namespace and instance. */
  static final int CONCURRENCY = 16;

  /** Event of a callback job: the task ended by its dispatcher (succeeded, failed, timed out). */
  static final String ENDED = "ended";

  /** Event of a callback job: the task was cancelled. */
  static final String CANCELLED = "cancelled";

  /**
   * Waits while a task's end is not stored yet: the ack lands just after the callback is queued.
   */
  static final long UNFINISHED_WAIT_MS = 200;

  private final Dispatcher service;
  private final Map<String, Worker> workers = new ConcurrentHashMap<>();
  private volatile boolean closed;

  Callbacks(Dispatcher service) {
    this.service = service;
  }

  static QueueName queue(String namespace) {
    return QueueName.of(namespace, QUEUE_NAME);
  }

  /** Runs a callback worker for each namespace with endpoints. */
  synchronized void sync(Set<String> endpointIds) {
    if (closed) {
      return;
    }
    Set<String> namespaces =
        endpointIds.stream()
            .map(id -> id.substring(0, id.indexOf('/')))
            .collect(Collectors.toSet());
    for (String ns : namespaces) {
      workers.computeIfAbsent(
          ns,
          n -> {
            service
                .lineup()
                .configure(
                    queue(n),
                    QueueSettings.builder()
                        .maxAttempts(MAX_ATTEMPTS)
                        .backoff(BACKOFF)
                        .timeToRun(TIMEOUT.plusSeconds(5))
                        .build());
            return service
                .lineup()
                .worker(
                    queue(n),
                    this::deliver,
                    new WorkerOptions(CONCURRENCY, Duration.ofSeconds(5), Duration.ofSeconds(5)))
                .start();
          });
    }
  }

  /**
   * Queues the callback of an ended task, built by the server from the task's own record: the URL
   * from its stored request (checked against the allowed prefixes at submit, and again when sent),
   * the {@code webhook-id} from its delivery key ({@code task_} and the key, unique across
   * endpoints and namespaces; {@code task_<endpoint>_<task id>} for a task stored without one), the
   * body from its outcome record. The job names the task and carries what was built, sealed under
   * the namespace's signing secret ({@link CallbackSeal}), so a job written into this queue some
   * other way cannot choose the URL, the id or the body that gets signed.
   *
   * @param event {@value #ENDED} or {@value #CANCELLED}
   */
  void enqueue(
      EndpointKey key, String taskId, TaskRequest request, ObjectNode record, String event) {
    ObjectNode job = DispatchJson.object();
    job.put("namespace", key.namespace());
    job.put("endpoint", key.name());
    job.put("task", taskId);
    job.put("event", event);
    List<String> secrets = service.callbacks().settings(key.namespace()).secrets();
    if (!secrets.isEmpty()) {
      ObjectNode callback = DispatchJson.object();
      callback.put("url", request.callbackUrl());
      callback.put("webhook_id", webhookId(key, taskId, request));
      callback.set("body", body(key, taskId, record, System.currentTimeMillis()));
      String sealed = new String(DispatchJson.write(callback), StandardCharsets.UTF_8);
      job.put("sealed", sealed);
      job.put("seal", CallbackSeal.seal(secrets.get(0), sealed));
    }
    try {
      service.lineup().publish(queue(key.namespace()), NewJob.of(DispatchJson.write(job)));
    } catch (RuntimeException e) {
      LOG.warn("Could not queue the callback of task {} of {}: {}", taskId, key, e.getMessage());
    }
  }

  private static String webhookId(EndpointKey key, String taskId, TaskRequest request) {
    return "task_"
        + (request.deliveryKey() != null
            ? request.idempotencyKey(taskId)
            : key.name() + "_" + taskId);
  }

  /**
   * A callback's body from a task's outcome record ({@code outcome}, {@code error}, {@code
   * attempts}, {@code response}): id, namespace, endpoint, status, error, attempts, the last
   * response, and when it ended.
   */
  private static ObjectNode body(EndpointKey key, String taskId, JsonNode record, long endedAt) {
    ObjectNode data = DispatchJson.object();
    data.put("id", taskId);
    data.put("namespace", key.namespace());
    data.put("endpoint", key.name());
    data.set("status", record.get("outcome"));
    data.set("error", record.get("error"));
    data.set("attempts", record.get("attempts"));
    data.set("response", record.get("response"));
    data.put("ended_at", endedAt);
    return data;
  }

  /** A callback job's reference to its task. */
  private record Reference(EndpointKey key, String taskId, String event) {}

  /**
   * The task a callback job names. Jobs queued by versions before references carry {@code url},
   * {@code webhook_id} and {@code body}: only the task their body names is kept, and the callback
   * is rebuilt from that task's record like any other. Null when the job names no task of its own
   * namespace.
   */
  private static Reference reference(JsonNode job, String namespace) {
    JsonNode ref = job.has("task") ? job : job.path("body");
    String taskId = ref.has("task") ? ref.path("task").asText("") : ref.path("id").asText("");
    String event = ref.path("event").asText("");
    if (!job.has("task")) {
      event = Outcome.CANCELLED.json().equals(ref.path("status").asText()) ? CANCELLED : ENDED;
    }
    if (taskId.isEmpty()
        || !(event.equals(ENDED) || event.equals(CANCELLED))
        || !namespace.equals(ref.path("namespace").asText())) {
      return null;
    }
    try {
      return new Reference(
          new EndpointKey(namespace, ref.path("endpoint").asText("")), taskId, event);
    } catch (RuntimeException badName) {
      return null;
    }
  }

  /** A callback to send: where, its {@code webhook-id}, its body. */
  private record Built(String url, String webhookId, JsonNode body) {}

  private byte[] deliver(LeasedJob job) throws Exception {
    String ns = job.queue().namespace();
    JsonNode payload;
    try {
      payload = DispatchJson.parse(job.payload());
    } catch (java.io.IOException | RuntimeException notJson) {
      payload = DispatchJson.object();
    }
    Reference ref = reference(payload, ns);
    if (ref == null) {
      LOG.warn("Callback job {} in {} dropped: it names no task of the namespace", job.id(), ns);
      return null;
    }
    CallbackSettings settings = service.callbacks().settings(ns);
    if (settings.secrets().isEmpty()) {
      throw new IllegalStateException("namespace " + ns + " has no callback signing secret");
    }
    Built built = unseal(payload, settings, ref);
    if (built == null) {
      // Not sealed by this server under a current secret (queued by an earlier version, or
      // written some other way): rebuilt from the task it names, or dropped.
      built = rebuild(ref, job);
      if (built == null) {
        return null;
      }
    } else if (ref.event().equals(ENDED) && cancelledSince(ref)) {
      // The task ended here, then its DELETE landed before the end was stored: the caller gets
      // the cancelled callback only.
      LOG.debug("Callback of {} in {} not sent: the task was cancelled since", job.id(), ns);
      return null;
    }
    byte[] body = DispatchJson.write(built.body());
    String id = built.webhookId();
    long timestamp = System.currentTimeMillis() / 1000;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("User-Agent", EndpointDispatcher.USER_AGENT);
    headers.put("webhook-id", id);
    headers.put("webhook-timestamp", Long.toString(timestamp));
    headers.put(
        "webhook-signature", WebhookSignature.header(settings.secrets(), id, timestamp, body));
    URI target;
    try {
      // The prefixes may have changed since the task was submitted: check again, with the rest.
      target = OutgoingRequestCheck.callback(settings, built.url(), headers);
    } catch (OutgoingRequestCheck.Refused refused) {
      LOG.warn("Callback of {} in {} not sent: {}", job.id(), ns, refused.getMessage());
      return null;
    }
    TargetResponse response;
    try {
      response =
          service
              .egress()
              .send(
                  target,
                  "POST",
                  headers,
                  body,
                  TIMEOUT.toMillis(),
                  EndpointDispatcher.BODY_GRACE_MS,
                  MAX_ANSWER_BYTES);
    } catch (EgressRefusedException refused) {
      // Only DNS showed it now; retrying would not make it allowed.
      LOG.warn("Callback of {} in {} not sent: {}", job.id(), ns, refused.error());
      return null;
    }
    if (response.status() / 100 != 2) {
      throw new IllegalStateException("callback answered " + response.status());
    }
    return null;
  }

  /** What a sealed job says, when its seal holds and it is about the task it names; else null. */
  private static Built unseal(JsonNode payload, CallbackSettings settings, Reference ref) {
    String sealed = payload.path("sealed").textValue();
    if (!CallbackSeal.verifies(settings.secrets(), sealed, payload.path("seal").textValue())) {
      return null;
    }
    JsonNode callback;
    try {
      callback = DispatchJson.parse(sealed.getBytes(StandardCharsets.UTF_8));
    } catch (java.io.IOException badJson) {
      return null;
    }
    JsonNode body = callback.path("body");
    if (!ref.taskId().equals(body.path("id").asText())
        || !ref.key().namespace().equals(body.path("namespace").asText())
        || !ref.key().name().equals(body.path("endpoint").asText())) {
      return null;
    }
    return new Built(callback.path("url").textValue(), callback.path("webhook_id").asText(), body);
  }

  /**
   * A callback built from the record of the task a job names, for a job without a valid seal; null
   * (and a warning) when it cannot be. Waits (a retry) while the task's end is not stored yet.
   */
  private Built rebuild(Reference ref, LeasedJob job) throws RetryLaterException {
    JobInfo task = service.tasks().find(ref.key(), ref.taskId()).orElse(null);
    if (task == null) {
      LOG.warn("Callback of task {} of {} dropped: the task is gone", ref.taskId(), ref.key());
      return null;
    }
    boolean cancelled = task.state() == JobState.CANCELLED;
    if (ref.event().equals(ENDED) && cancelled) {
      return null;
    }
    if (ref.event().equals(CANCELLED) != cancelled || !TaskReader.finished(task.state())) {
      if (job.lastAttempt()) {
        LOG.warn(
            "Callback of task {} of {} dropped: the task did not end as its callback says",
            ref.taskId(),
            ref.key());
        return null;
      }
      throw new RetryLaterException(
          "the task's end is not stored yet",
          Duration.ofMillis(Math.min(5_000, UNFINISHED_WAIT_MS * job.attempt())));
    }
    TaskRequest request;
    try {
      // A cancelled task's record keeps no request: nothing to call back from.
      request = TaskRequest.decode(task.payload());
    } catch (IllegalArgumentException notATask) {
      LOG.warn(
          "Callback of task {} of {} dropped: its record holds no request",
          ref.taskId(),
          ref.key());
      return null;
    }
    if (request.callbackUrl() == null) {
      LOG.warn("Callback of task {} of {} dropped: the task has none", ref.taskId(), ref.key());
      return null;
    }
    ObjectNode record = TaskReader.outcomeRecord(TaskReader.task(ref.key(), task));
    long endedAt =
        task.finishedAt() != null ? task.finishedAt().toEpochMilli() : System.currentTimeMillis();
    return new Built(
        request.callbackUrl(),
        webhookId(ref.key(), ref.taskId(), request),
        body(ref.key(), ref.taskId(), record, endedAt));
  }

  /** Whether the task now reads cancelled. */
  private boolean cancelledSince(Reference ref) {
    try {
      return service
          .lineup()
          .get(ref.key().queue(), ref.taskId())
          .map(task -> task.state() == JobState.CANCELLED)
          .orElse(false);
    } catch (RuntimeException unreadable) {
      return false;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    workers.values().forEach(Worker::close);
    workers.clear();
  }
}
