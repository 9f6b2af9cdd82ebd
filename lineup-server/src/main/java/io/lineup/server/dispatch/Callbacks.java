package io.lineup.server.dispatch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.core.Backoff;
import io.lineup.core.JobState;
import io.lineup.core.LeasedJob;
import io.lineup.core.NewJob;
import io.lineup.core.QueueName;
import io.lineup.core.QueueSettings;
import io.lineup.core.Worker;
import io.lineup.core.WorkerOptions;
import io.lineup.server.egress.EgressRefusedException;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
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

  private final DispatchService service;
  private final Map<String, Worker> workers = new ConcurrentHashMap<>();
  private volatile boolean closed;

  Callbacks(DispatchService service) {
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
                    QueueSettings.change()
                        .withMaxAttempts(MAX_ATTEMPTS)
                        .withBackoff(BACKOFF)
                        .withTimeToRun(TIMEOUT.plusSeconds(5)));
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
   * Queues the callback of an ended task. Its {@code webhook-id} is {@code task_} and the task's
   * delivery key, unique across endpoints and namespaces; a task stored without one keeps the
   * earlier form, {@code task_<endpoint>_<task id>}.
   */
  void enqueue(EndpointKey key, String taskId, TaskRequest request, ObjectNode record) {
    ObjectNode data = record.deepCopy();
    data.put("id", taskId);
    data.put("namespace", key.namespace());
    data.put("endpoint", key.name());
    data.put("status", data.path("outcome").asText());
    data.remove("outcome");
    data.put("ended_at", System.currentTimeMillis());
    ObjectNode job = Json.object();
    job.put("url", request.callbackUrl());
    job.put(
        "webhook_id",
        "task_"
            + (request.deliveryKey() != null ? request.deliveryKey() : key.name() + "_" + taskId));
    job.set("body", data);
    try {
      service.lineup().publish(queue(key.namespace()), NewJob.of(Json.write(job)));
    } catch (RuntimeException e) {
      LOG.warn("Could not queue the callback of task {} of {}: {}", taskId, key, e.getMessage());
    }
  }

  private byte[] deliver(LeasedJob job) throws Exception {
    JsonNode callback = Json.parse(job.payload());
    String url = callback.path("url").asText();
    String ns = job.queue().namespace();
    CallbackSettings settings = service.callbackSettings(ns);
    try {
      // The prefixes may have changed since the task was submitted: check again.
      settings.check(url);
    } catch (ApiException refused) {
      LOG.warn("Callback of {} in {} not sent: its URL is no longer allowed", job.id(), ns);
      return null;
    }
    if (settings.secrets().isEmpty()) {
      throw new IllegalStateException("namespace " + ns + " has no callback signing secret");
    }
    if (cancelledSince(callback.get("body"))) {
      // The task ended here, then its DELETE landed before the end was stored: the caller gets
      // the cancelled callback only.
      LOG.debug("Callback of {} in {} not sent: the task was cancelled since", job.id(), ns);
      return null;
    }
    byte[] body = Json.write(callback.get("body"));
    String id = callback.path("webhook_id").asText();
    long timestamp = System.currentTimeMillis() / 1000;
    String signature = WebhookSignature.header(settings.secrets(), id, timestamp, body);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("User-Agent", EndpointDispatcher.USER_AGENT);
    headers.put("webhook-id", id);
    headers.put("webhook-timestamp", Long.toString(timestamp));
    headers.put("webhook-signature", signature);
    TargetResponse response;
    try {
      response =
          service
              .egress()
              .send(
                  URI.create(url),
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

  /** Whether a callback other than a cancel's is for a task that now reads cancelled. */
  private boolean cancelledSince(JsonNode body) {
    if (Outcome.CANCELLED.json().equals(body.path("status").asText())) {
      return false;
    }
    try {
      EndpointKey key =
          new EndpointKey(body.path("namespace").asText(), body.path("endpoint").asText());
      return service
          .lineup()
          .get(key.queue(), body.path("id").asText())
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
