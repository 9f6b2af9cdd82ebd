package io.lineup.dispatch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.consumer.RetryLaterException;
import io.lineup.consumer.WorkerOptions;
import io.lineup.core.Worker;
import io.lineup.core.model.LeasedJob;
import io.lineup.dispatch.egress.EgressRefusedException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sends the tasks of one endpoint from this instance: an engine {@link Worker} on virtual threads
 * leases them within the endpoint's limits (checked atomically by the engine across instances),
 * extends the lease while the request runs, and acks or nacks by the outcome.
 */
final class EndpointDispatcher implements AutoCloseable {
  /** Largest response body kept in a task's record: 256 KiB. */
  static final int MAX_RESPONSE_BODY = 256 * 1024;

  /** The {@code User-Agent} of a task's requests when the task sets none. */
  static final String USER_AGENT = "Lineup";

  /** Time a response body may take beyond the attempt timeout, in milliseconds. */
  static final long BODY_GRACE_MS = 1000;

  /** Most response headers kept in a task's record. */
  static final int MAX_RESPONSE_HEADERS = 32;

  private final Dispatcher service;
  private final EndpointKey key;
  private volatile EndpointSpec spec;
  private Worker worker;
  private int workerConcurrency;

  EndpointDispatcher(Dispatcher service, EndpointKey key, EndpointSpec spec) {
    this.service = service;
    this.key = key;
    this.spec = spec;
  }

  EndpointSpec spec() {
    return spec;
  }

  EndpointKey key() {
    return key;
  }

  /** Starts leasing, or restarts when the concurrency of this instance changed. */
  synchronized void update(EndpointSpec next) {
    this.spec = next;
    if (worker != null && workerConcurrency == next.localConcurrency()) {
      return;
    }
    Worker old = worker;
    workerConcurrency = next.localConcurrency();
    worker =
        service
            .lineup()
            .worker(
                key.queue(),
                this::handle,
                new WorkerOptions(workerConcurrency, Duration.ofSeconds(5), Duration.ofSeconds(10)))
            .start();
    if (old != null) {
      // Its running requests finish (or are released) without holding up the new worker.
      Thread.ofVirtual().start(old::close);
    }
  }

  @Override
  public synchronized void close() {
    if (worker != null) {
      worker.close();
      worker = null;
    }
  }

  private byte[] handle(LeasedJob job) throws Exception {
    EndpointSpec current = spec;
    String taskKey = key.taskKey(job.id());
    service.tasks().running().put(taskKey, Thread.currentThread());
    try {
      List<Attempt> attempts =
          job.attempt() > 1
              ? service.tasks().previousAttempts(key.queue(), job.id())
              : new ArrayList<>();
      TaskRequest request = null;
      URI uri;
      try {
        request = TaskRequest.decode(job.payload());
        // Checked at submit and again here, whatever wrote the record: a job that reached the
        // queue another way, or an endpoint changed since, ends here without a request.
        uri = OutgoingRequestCheck.task(current, request, job.id(), service.tasks().maxBodyBytes());
      } catch (RuntimeException notATask) {
        // A request that decoded but may not be sent keeps its callback.
        return end(
            job, request, Outcome.FAILED, attempts, null, "not sent: " + notATask.getMessage());
      }
      if (job.attempt() == 1
          && job.leasedAt().toEpochMilli() - job.dueAt().toEpochMilli() > current.lineTimeoutMs()) {
        return end(
            job, request, Outcome.TIMED_OUT, attempts, null, "waited longer than the line timeout");
      }
      String missed = missedDeadline(current, request, job);
      if (missed != null) {
        return end(job, request, Outcome.TIMED_OUT, attempts, null, missed);
      }
      boolean probe = service.breakers().admit(key, taskKey, current);
      Result result;
      try {
        long startedAt = paceSend(current, job);
        result = send(current, request, uri, job, startedAt);
      } catch (InterruptedException | RuntimeException notSent) {
        if (probe) {
          service.breakers().dropProbe(key, taskKey, current);
        }
        throw notSent;
      }
      attempts.add(result.attempt);
      if (result.refused) {
        // The egress policy, not the endpoint's health: no retry, and the breaker is not told.
        if (probe) {
          service.breakers().dropProbe(key, taskKey, current);
        }
        return end(job, request, Outcome.FAILED, attempts, null, result.attempt.error());
      }
      reportAdaptive(current, result);
      RetryPolicy policy = current.retryPolicy();
      boolean success = result.response != null && result.attempt.status() / 100 == 2;
      // The endpoint's health: no answer, 429 or 5xx count against it; any other answer shows it
      // up (a 404 is the caller's problem), and a probe answered so closes the breaker.
      boolean healthFailure =
          result.response == null
              || result.attempt.status() >= 500
              || result.attempt.status() == 429;
      if (healthFailure) {
        service.breakers().failure(key, current);
      } else {
        service.breakers().success(key, current);
      }
      if (success) {
        return end(job, request, Outcome.SUCCEEDED, attempts, result.response, null);
      }
      boolean retried =
          result.response == null
              ? (result.timedOut ? policy.retriesTimeout() : policy.retriesConnectionError())
              : policy.retriesStatus(result.attempt.status());
      if (!retried) {
        return end(job, request, Outcome.FAILED, attempts, result.response, null);
      }
      String history = Attempt.history(attempts);
      if (job.lastAttempt()) {
        // The nack below moves it to dead letters; the task has ended.
        service.tasks().ended(key, job.id(), request, deadRecord(attempts, result.response));
        throw new Failure(history);
      }
      long wait = current.backoff().waitAfter(job.attempt());
      if (result.retryAfterMs >= 0) {
        wait = Math.max(wait, Math.min(result.retryAfterMs, current.retryAfterCapMs()));
      }
      throw new Later(history, Duration.ofMillis(wait));
    } finally {
      service.tasks().running().remove(taskKey, Thread.currentThread());
    }
  }

  /**
   * Tells the endpoint's adaptive concurrency how the request went, before the task's lease ends
   * (the limit counts the requests in flight then). A connection error says nothing of the
   * endpoint's load and is not reported; a timeout is reported by its time. A report that fails
   * (Redis away) leaves the limit where it is and the task unharmed.
   */
  private void reportAdaptive(EndpointSpec current, Result result) {
    if (current.adaptive() == null || (result.response == null && !result.timedOut)) {
      return;
    }
    try {
      service
          .adaptive()
          .report(
              key,
              current,
              result.attempt.durationMs(),
              result.response == null ? 0 : result.attempt.status(),
              result.retryAfterMs);
    } catch (RuntimeException notReported) {
      // One signal lost: the window is measured from the others.
    }
  }

  /**
   * Why a leased task may not be sent because of its deadlines, or null when it may: its first
   * attempt leased after its {@code start_by} ("start_by passed"), or any attempt leased when the
   * endpoint's expected service time no longer fits before its {@code finish_by}
   * ("deadline_unreachable"). Times are the engine's (the lease's time by the Redis clock).
   */
  static String missedDeadline(EndpointSpec spec, TaskRequest request, LeasedJob job) {
    long leasedAt = job.leasedAt().toEpochMilli();
    if (job.attempt() == 1 && request.startBy() != null && leasedAt > request.startBy()) {
      return "start_by passed: leased at "
          + job.leasedAt()
          + ", after its start_by "
          + java.time.Instant.ofEpochMilli(request.startBy());
    }
    if (request.finishBy() != null
        && leasedAt + Tasks.expectedServiceMs(spec) > request.finishBy()) {
      return "deadline_unreachable: leased at "
          + job.leasedAt()
          + ", its request (expected to take "
          + Tasks.expectedServiceMs(spec)
          + " ms) cannot end by its finish_by "
          + java.time.Instant.ofEpochMilli(request.finishBy());
    }
    return null;
  }

  /** The record of a task out of attempts, for its callback: with the last attempt's response. */
  private ObjectNode deadRecord(List<Attempt> attempts, ObjectNode lastResponse) {
    ObjectNode record = DispatchJson.object();
    record.put("outcome", Outcome.FAILED.json());
    record.put("error", "out of attempts");
    record.set("attempts", Attempt.toJson(attempts));
    record.set("response", lastResponse);
    return record;
  }

  /**
   * Ends a task: its record (the ack's result), its long-polls woken and its callback queued.
   *
   * @param request the task's request as decoded; null when the job is not a task (nobody to call
   *     back)
   */
  private byte[] end(
      LeasedJob job,
      TaskRequest request,
      Outcome outcome,
      List<Attempt> attempts,
      ObjectNode response,
      String error) {
    ObjectNode record = DispatchJson.object();
    record.put("outcome", outcome.json());
    record.put("error", error);
    record.set("attempts", Attempt.toJson(attempts));
    record.set("response", response);
    service.tasks().ended(key, job.id(), request, record);
    return DispatchJson.write(record);
  }

  /** What one request gave: the attempt, and the response as the record keeps it. */
  private record Result(
      Attempt attempt, ObjectNode response, boolean timedOut, boolean refused, long retryAfterMs) {}

  /**
   * @param startedAt when the request is sent, as the attempt records it (epoch ms; for a rate
   *     limited endpoint, the rate slot's time by the shared clock)
   */
  private Result send(
      EndpointSpec current, TaskRequest request, URI uri, LeasedJob job, long startedAt)
      throws InterruptedException {
    Map<String, String> headers = new LinkedHashMap<>(request.headers());
    boolean typed = false;
    boolean named = false;
    for (String name : headers.keySet()) {
      typed |= name.equalsIgnoreCase("content-type");
      named |= name.equalsIgnoreCase("user-agent");
    }
    if (!typed && request.contentType() != null && request.body().length > 0) {
      headers.put("Content-Type", request.contentType());
    }
    if (!named) {
      headers.put("User-Agent", USER_AGENT);
    }
    // A target that saw this key already can drop a second delivery; the id is for its logs.
    headers.put("Idempotency-Key", request.idempotencyKey(job.id()));
    headers.put("Lineup-Task-Id", job.id());
    AttemptTrace trace =
        AttemptTrace.start(service.lineup().options().observation(), key, job, headers);
    long start = System.nanoTime();
    try {
      // The response headers within the attempt timeout, the body within BODY_GRACE_MS more.
      TargetResponse response =
          service
              .egress()
              .send(
                  uri,
                  request.method(),
                  headers,
                  request.body(),
                  current.attemptTimeoutMs(),
                  BODY_GRACE_MS,
                  MAX_RESPONSE_BODY,
                  current.rate() > 0 ? () -> restampRateSlot(job) : null);
      trace.answered(response.status());
      byte[] body = response.body();
      boolean cut = body.length > MAX_RESPONSE_BODY;
      long took = (System.nanoTime() - start) / 1_000_000;
      ObjectNode view = DispatchJson.object();
      view.put("status", response.status());
      ObjectNode kept = view.putObject("headers");
      int count = 0;
      for (var h : response.headers().entrySet()) {
        if (count++ >= MAX_RESPONSE_HEADERS || h.getKey().startsWith(":")) {
          continue;
        }
        kept.put(h.getKey().toLowerCase(Locale.ROOT), String.join(", ", h.getValue()));
      }
      String type = response.first("content-type");
      boolean truncated = Bodies.put(view, "body", body, type, MAX_RESPONSE_BODY) || cut;
      view.put("body_truncated", truncated);
      long retryAfter = retryAfterMs(response.first("retry-after"));
      return new Result(
          new Attempt(job.attempt(), startedAt, took, response.status(), null),
          view,
          false,
          false,
          retryAfter);
    } catch (EgressRefusedException refused) {
      trace.failed(refused);
      // Nothing was sent: the target's addresses are not allowed (only DNS showed it).
      long took = (System.nanoTime() - start) / 1_000_000;
      return new Result(
          new Attempt(job.attempt(), startedAt, took, null, refused.error()),
          null,
          false,
          true,
          -1);
    } catch (IOException e) {
      trace.failed(e);
      boolean timedOut = e instanceof EgressClient.DeadlineException;
      long took = (System.nanoTime() - start) / 1_000_000;
      String error =
          timedOut
              ? "timeout"
              : "connection_error: " + Attempt.shorten(String.valueOf(e.getMessage()));
      return new Result(
          new Attempt(job.attempt(), startedAt, took, null, error), null, timedOut, false, -1);
    } finally {
      trace.stop();
    }
  }

  /**
   * Holds the endpoint's rate as sent, not only as leased, across all instances: the task takes its
   * slot of the queue's rate log in Redis now (the engine's {@code takeRateSlot}), waiting the
   * answered time while the period ending now is full. A request leased in time but held up on its
   * way (a busy machine, a slow connection before it) so takes its slot when it goes, and cannot
   * put a start more than the rate into any period.
   *
   * @return when the request goes (epoch ms): the slot's time by the shared clock (Redis server
   *     time), or this host's clock for an endpoint without a rate
   */
  private long paceSend(EndpointSpec current, LeasedJob job) throws InterruptedException {
    if (current.rate() <= 0) {
      return System.currentTimeMillis();
    }
    return service.lineup().awaitRateSlot(job).toEpochMilli();
  }

  /**
   * Moves the task's entry in the endpoint's rate log from the slot's time to the moment its
   * request was written, off the client's thread. The slot is decided before the request leaves:
   * opening a connection or a busy machine can hold a request up for milliseconds after it, and a
   * window at the target would then hold requests of two periods. With the entry at the moment of
   * writing, later slots count a period from when the request really left; the decided start (the
   * attempt's {@code started_at}) stays as it was. A failed move only leaves the earlier time.
   */
  private void restampRateSlot(LeasedJob job) {
    Thread.ofVirtual()
        .start(() -> {
          try {
            service.lineup().takeRateSlot(job);
          } catch (RuntimeException notMoved) {
            // Redis away for a moment: the entry keeps the slot's time.
          }
        });
  }

  /** A {@code Retry-After} in milliseconds (seconds or an HTTP date), or -1 when none or bad. */
  static long retryAfterMs(String value) {
    if (value == null || value.isBlank()) {
      return -1;
    }
    String text = value.trim();
    try {
      return Math.max(0, Long.parseLong(text) * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        long at =
            java.time.ZonedDateTime.parse(
                    text, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant()
                .toEpochMilli();
        return Math.max(0, at - System.currentTimeMillis());
      } catch (java.time.format.DateTimeParseException notADate) {
        return -1;
      }
    }
  }

  /** The final attempt failed: the nack moves the task to dead letters. */
  static final class Failure extends RuntimeException {
    Failure(String history) {
      super(history, null, false, false);
    }

    @Override
    public String toString() {
      // The engine keeps the handler's exception text as the error: keep it to the history.
      return getMessage();
    }
  }

  /** A retry after a chosen wait. */
  static final class Later extends RetryLaterException {
    Later(String history, Duration delay) {
      super(history, delay);
    }

    @Override
    public String toString() {
      return getMessage();
    }
  }
}
