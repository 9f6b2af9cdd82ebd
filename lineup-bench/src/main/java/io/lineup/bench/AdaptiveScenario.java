package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.bench.report.BenchReport;
import io.lineup.bench.report.Figure;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Adaptive dispatch against an endpoint whose capacity changes under it (issue 53): a {@link
 * CapacityTarget} works on {@link #CAPACITIES} requests at once in turn, each step {@link
 * AdaptiveCounts#stepSeconds()} long, while submitters keep about {@value #BACKLOG} tasks waiting
 * for it. The endpoint is set up with {@code adaptive: {min, max, target_latency_ms}} under a
 * ceiling of {@value #CEILING}; a server that refuses the setting (or takes it without showing it)
 * gets a fixed {@code concurrency} of the first step's capacity instead, what an operator who
 * measured the endpoint once would pin, and the run says so ({@code adaptive_limits} among the
 * counts).
 *
 * <p>For each step: when the requests open at the endpoint settled within ±10 % of its capacity
 * ({@link Settling}), then over the rest of the step (the steady part; the second half when they
 * never settled) the delivered rate (204 answers) ÷ the capacity rate (capacity ÷ the full-load
 * service time), the share of 429 answers, and the 99th percentile of the answered requests'
 * latency at the endpoint (waiting for a worker included) ÷ the target latency. The figures are the
 * worst step's.
 */
final class AdaptiveScenario {
  /** The capacity schedule: requests the endpoint works on at once, step by step. */
  static final int[] CAPACITIES = {50, 20, 80};

  /** Service time of a request with one worker busy, in milliseconds. */
  static final long BASE_SERVICE_MS = 100;

  /** The adaptive limit's {@code max} and the endpoint's {@code concurrency} above it. */
  static final int CEILING = 100;

  /**
   * The adaptive limit's {@code target_latency_ms}: the full-load service time (125 ms) plus 4 %.
   * Beyond its capacity C this endpoint serves C every 125 ms whatever waits, so L requests open
   * take L / C × 125 ms, and the limit settles where that meets the target: at C × target / 125.
   * 130 ms puts that at 1.04 C, inside the ±10 % band the settle time counts (140 ms would put it
   * at 1.12 C, outside it); the few milliseconds the dispatcher's own HTTP round trip adds to the
   * latency it measures bring it a little lower still.
   */
  static final long TARGET_LATENCY_MS = 130;

  /** Tasks the submitters keep waiting in the endpoint's line. */
  static final int BACKLOG = 1_000;

  /** Submitting threads, each blocking on one request at a time. */
  static final int SUBMITTERS = 8;

  /** How often the submitters learn how many tasks wait, in milliseconds. */
  static final long WAITING_READ_EVERY_MS = 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final BenchContext context;
  private final AdaptiveCounts counts;
  private final HttpApi api;
  private final CapacityTarget target;
  private final BenchEndpoint endpoint;
  private final AtomicLong waiting = new AtomicLong();

  private AdaptiveScenario(
      BenchContext context, AdaptiveCounts counts, HttpApi api, CapacityTarget target) {
    this.context = context;
    this.counts = counts;
    this.api = api;
    this.target = target;
    this.endpoint = new BenchEndpoint(api, "adaptive");
  }

  /** One step's outcome. */
  private record Step(
      int capacity, long settleMillis, double share, double refusedShare, double p99Ratio) {}

  /**
   * Runs the step schedule through a started server and returns the figures; records in {@code
   * report} whether the limits were adaptive or fixed.
   */
  static List<Figure> run(
      BenchContext context, AdaptiveCounts counts, HttpApi api, BenchReport report) {
    try (CapacityTarget target = new CapacityTarget(CAPACITIES[0], BASE_SERVICE_MS)) {
      return new AdaptiveScenario(context, counts, api, target).measure(report);
    } catch (IOException e) {
      throw new IllegalStateException("adaptive scenario failed: " + e.getMessage(), e);
    }
  }

  private String common() {
    return "\"base_url\": \"http://127.0.0.1:"
        + target.port()
        + "\", \"max_attempts\": 10, \"expected_service_ms\": "
        + Math.round(target.fullLoadServiceMillis())
        // The breaker would pause the endpoint for its cool-down after a few 429s in a row: off,
        // so the figures show the concurrency control alone.
        + ", \"circuit_breaker\": {\"failures\": 0, \"cooldown_ms\": 30000}";
  }

  private String adaptiveSettings() {
    return common()
        + ", \"concurrency\": "
        + CEILING
        + ", \"adaptive\": {\"min\": 1, \"max\": "
        + CEILING
        + ", \"target_latency_ms\": "
        + TARGET_LATENCY_MS
        + "}";
  }

  private String fixedSettings() {
    return common() + ", \"concurrency\": " + CAPACITIES[0];
  }

  /** Sets the endpoint up paused; true when the server took the adaptive limits. */
  private boolean setUp() throws IOException {
    Http11Connection.Answer answer = endpoint.put(adaptiveSettings() + ", \"paused\": true");
    if (answer.status() / 100 == 2) {
      JsonNode adaptive = JSON.readTree(answer.body()).path("adaptive");
      if (!adaptive.isMissingNode() && !adaptive.isNull()) {
        context.say("adaptive: the server took the adaptive limits: %s", adaptive);
        return true;
      }
      context.say(
          "adaptive: the server took the endpoint without showing adaptive limits: running with"
              + " a fixed concurrency of %d",
          CAPACITIES[0]);
    } else {
      context.say(
          "adaptive: the server refused the adaptive limits (%d: %s): running with a fixed"
              + " concurrency of %d",
          answer.status(), answer.body(), CAPACITIES[0]);
    }
    endpoint.putTaken(fixedSettings() + ", \"paused\": true");
    return false;
  }

  private List<Figure> measure(BenchReport report) throws IOException {
    boolean adaptive = setUp();
    report.count("adaptive_limits", adaptive ? "adaptive" : "fixed");
    String settings = adaptive ? adaptiveSettings() : fixedSettings();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> submitters = new ArrayList<>();
    submitters.add(
        Thread.ofPlatform()
            .daemon()
            .name("bench-adaptive-waiting")
            .start(() -> readWaiting(stop, failure)));
    for (int i = 0; i < SUBMITTERS; i++) {
      submitters.add(
          Thread.ofPlatform()
              .daemon()
              .name("bench-adaptive-submit-" + i)
              .start(() -> keepLineFull(stop, failure)));
    }
    long[] starts = new long[CAPACITIES.length];
    long[] ends = new long[CAPACITIES.length];
    RedisProbe probe;
    long answered;
    try {
      awaitBacklog(failure);
      context.say(
          "adaptive: %d tasks waiting; capacity %s, %d s each, base service %d ms (%.0f ms at full"
              + " load), target latency %d ms",
          BACKLOG,
          java.util.Arrays.toString(CAPACITIES),
          counts.stepSeconds(),
          BASE_SERVICE_MS,
          target.fullLoadServiceMillis(),
          TARGET_LATENCY_MS);
      probe = RedisProbe.start(context);
      long before = target.requests().size();
      endpoint.putTaken(settings);
      for (int i = 0; i < CAPACITIES.length; i++) {
        target.capacity(CAPACITIES[i]);
        starts[i] = System.nanoTime();
        Pause.millis(counts.stepSeconds() * 1_000L);
        ends[i] = System.nanoTime();
        if (failure.get() != null) {
          throw new IllegalStateException("a submit failed: " + failure.get(), failure.get());
        }
        if (adaptive) {
          context.say(
              "adaptive: end of step %d, the endpoint's adaptive state: %s",
              i + 1, endpoint.get().path("adaptive"));
        }
      }
      answered = target.requests().size() - before;
    } finally {
      stop.set(true);
      for (Thread submitter : submitters) {
        submitter.interrupt();
      }
    }
    endpoint.putTaken(settings + ", \"paused\": true");
    RedisProbe.Cost cost = probe.finish("adaptive_goodput_share", answered);
    long quiet = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (target.open() > 0 && System.nanoTime() < quiet) {
      Pause.millis(50);
    }
    endpoint.delete(context);

    List<CapacityTarget.Request> requests = target.requests();
    List<CapacityTarget.Sample> samples = target.samples();
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < CAPACITIES.length; i++) {
      steps.add(step(i + 1, CAPACITIES[i], starts[i], ends[i], requests, samples));
    }
    double share = steps.stream().mapToDouble(Step::share).min().orElseThrow();
    double refused = steps.stream().mapToDouble(Step::refusedShare).max().orElseThrow();
    double p99 = steps.stream().mapToDouble(Step::p99Ratio).max().orElseThrow();
    long stepMillis = counts.stepSeconds() * 1_000L;
    double settle =
        steps.stream()
            .mapToLong(s -> s.settleMillis() < 0 ? stepMillis : s.settleMillis())
            .max()
            .orElseThrow();
    context.say(
        "adaptive (%s limits): worst step: goodput %.2f, 429s %.2f %%, p99 %.2f × target, %s",
        adaptive ? "adaptive" : "fixed",
        share,
        refused * 100,
        p99,
        steps.stream().anyMatch(s -> s.settleMillis() < 0)
            ? "a step never settled (counted as its length)"
            : String.format(java.util.Locale.ROOT, "settled after %.1f s", settle / 1e3));
    return List.of(
        figure("adaptive_goodput_share", share, Figure.Unit.SHARE, cost, answered),
        figure("adaptive_429_share", refused, Figure.Unit.SHARE, cost, answered),
        figure("adaptive_latency_p99_ratio", p99, Figure.Unit.RATIO, cost, answered),
        figure("adaptive_settle_ms", settle, Figure.Unit.MILLISECONDS, cost, answered));
  }

  private static Figure figure(
      String name, double value, Figure.Unit unit, RedisProbe.Cost cost, long answered) {
    return new Figure(
        name, value, unit, cost.redisMicrosPerJob(), cost.benchMicrosPerJob(), answered);
  }

  private Step step(
      int number,
      int capacity,
      long start,
      long end,
      List<CapacityTarget.Request> requests,
      List<CapacityTarget.Sample> samples) {
    long settle = Settling.settleMillis(samples, capacity, start, end);
    long steadyFrom = settle >= 0 ? start + settle * 1_000_000 : start + (end - start) / 2;
    int ok = 0;
    int refused = 0;
    List<Double> latencies = new ArrayList<>();
    for (CapacityTarget.Request request : requests) {
      if (request.endNanos() < steadyFrom || request.endNanos() > end) {
        continue;
      }
      if (request.status() == 429) {
        refused++;
      } else {
        ok++;
        latencies.add(request.latencyMillis());
      }
    }
    double seconds = (end - steadyFrom) / 1e9;
    double capacityRate = capacity / (target.fullLoadServiceMillis() / 1e3);
    double share = ok / seconds / capacityRate;
    double refusedShare = ok + refused == 0 ? 0 : refused / (double) (ok + refused);
    double p99 =
        latencies.isEmpty()
            ? 0
            : new Percentiles(latencies.stream().mapToDouble(Double::doubleValue).toArray()).at(99);
    double open =
        samples.stream()
            .filter(s -> s.nanos() >= steadyFrom && s.nanos() <= end)
            .mapToInt(CapacityTarget.Sample::open)
            .average()
            .orElse(0);
    context.say(
        "adaptive: step %d (capacity %d): %s; steady part %.1f s: %.0f delivered/s of %.0f"
            + " (%.2f), %d answers 429 (%.2f %%), p99 %.0f ms (%.2f × %d ms), %.1f open on"
            + " average",
        number,
        capacity,
        settle >= 0 ? "settled after " + settle + " ms" : "never settled",
        seconds,
        ok / seconds,
        capacityRate,
        share,
        refused,
        refusedShare * 100,
        p99,
        p99 / TARGET_LATENCY_MS,
        TARGET_LATENCY_MS,
        open);
    return new Step(capacity, settle, share, refusedShare, p99 / TARGET_LATENCY_MS);
  }

  /** Waits until the submitters have put {@value #BACKLOG} tasks in line. */
  private void awaitBacklog(AtomicReference<Throwable> failure) {
    long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
    while (waiting.get() < BACKLOG) {
      if (failure.get() != null) {
        throw new IllegalStateException("a submit failed: " + failure.get(), failure.get());
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("adaptive: the backlog did not fill in a minute");
      }
      Pause.millis(20);
    }
  }

  /**
   * Reads how many tasks wait every {@value #WAITING_READ_EVERY_MS} ms, so the submitters know when
   * the dispatcher has taken some.
   */
  private void readWaiting(AtomicBoolean stop, AtomicReference<Throwable> failure) {
    try {
      while (!stop.get()) {
        waiting.set(context.lineup().stats(endpoint.queue()).ready());
        Thread.sleep(WAITING_READ_EVERY_MS);
      }
    } catch (InterruptedException e) {
      // stopped
    } catch (RuntimeException e) {
      if (!stop.get()) {
        failure.compareAndSet(null, e);
      }
    }
  }

  /**
   * One submitter: submits while fewer than {@value #BACKLOG} tasks wait, as last read or as the
   * last submit's position says.
   */
  private void keepLineFull(AtomicBoolean stop, AtomicReference<Throwable> failure) {
    String tasks = endpoint.path() + "/tasks";
    try {
      while (!stop.get()) {
        if (waiting.get() >= BACKLOG) {
          Thread.sleep(5);
          continue;
        }
        String answer = api.post(tasks, "{}", 202).body();
        long position = JSON.readTree(answer).path("position").asLong();
        waiting.accumulateAndGet(position + 1, Math::max);
      }
    } catch (InterruptedException e) {
      // stopped
    } catch (IOException | RuntimeException e) {
      if (!stop.get()) {
        failure.compareAndSet(null, e);
      }
    }
  }
}
