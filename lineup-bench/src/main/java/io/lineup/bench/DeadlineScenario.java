package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.bench.report.Figure;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Deadlines under overload (issue 53): a {@link CapacityTarget} of fixed capacity {@value
 * #CAPACITY} behind an endpoint of the same {@code concurrency}, and tasks submitted at {@value
 * #OVERLOAD} × its capacity rate, each with a {@code finish_by} drawn uniformly from {@link
 * AdaptiveCounts#deadlineMinMs()} to {@link AdaptiveCounts#deadlineMaxMs()} after its submit. Each
 * task carries its number in {@link CapacityTarget#SERIAL_HEADER}, so the target tells which tasks
 * reached it, refused ones included.
 *
 * <ul>
 *   <li>{@code deadline_miss_share}: of the tasks answered 202, those not served by their deadline:
 *       served after it (the target's answer written later than {@code finish_by}), or ended
 *       without being served ({@code timed_out} at their lease, or any other end).
 *   <li>{@code refused_or_expired_endpoint_calls}: requests that reached the target for tasks
 *       refused at submit (429 {@code deadline_unreachable}) or ended {@code timed_out}: should be
 *       none.
 * </ul>
 */
final class DeadlineScenario {
  /** Requests the target works on at once, and the endpoint's {@code concurrency}. */
  static final int CAPACITY = 20;

  /** Service time of a request with one worker busy, in milliseconds. */
  static final long BASE_SERVICE_MS = 100;

  /** Submits per second as a multiple of the capacity rate. */
  static final double OVERLOAD = 2.0;

  /** Submitting threads, each blocking on one request at a time. */
  static final int SUBMITTERS = 16;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A task answered 202. */
  private record Accepted(long serial, String id, long finishBy) {}

  private DeadlineScenario() {}

  /** Runs the overload through a started server and returns the two figures. */
  static List<Figure> run(BenchContext context, AdaptiveCounts counts, HttpApi api) {
    try (CapacityTarget target = new CapacityTarget(CAPACITY, BASE_SERVICE_MS)) {
      return measure(context, counts, api, target);
    } catch (IOException e) {
      throw new IllegalStateException("deadline scenario failed: " + e.getMessage(), e);
    }
  }

  private static List<Figure> measure(
      BenchContext context, AdaptiveCounts counts, HttpApi api, CapacityTarget target)
      throws IOException {
    BenchEndpoint endpoint = new BenchEndpoint(api, "deadline");
    endpoint.putTaken(
        "\"base_url\": \"http://127.0.0.1:"
            + target.port()
            + "\", \"concurrency\": "
            + CAPACITY
            + ", \"expected_service_ms\": "
            + Math.round(target.fullLoadServiceMillis())
            + ", \"circuit_breaker\": {\"failures\": 0, \"cooldown_ms\": 30000}");
    double capacityRate = CAPACITY / (target.fullLoadServiceMillis() / 1e3);
    double rate = OVERLOAD * capacityRate;
    int total = (int) Math.round(rate * counts.deadlineSubmitSeconds());
    context.say(
        "deadline: %,d tasks at %.0f/s (%.1f × the capacity rate %.0f/s), finish_by %d–%d ms"
            + " ahead",
        total, rate, OVERLOAD, capacityRate, counts.deadlineMinMs(), counts.deadlineMaxMs());
    // Anchors the target's monotonic times to the wall clock the deadlines are given in.
    long epochAtStart = System.currentTimeMillis();
    long nanosAtStart = System.nanoTime();
    Map<Long, Accepted> accepted = new ConcurrentHashMap<>();
    Set<Long> refused = ConcurrentHashMap.newKeySet();
    AtomicInteger otherRefusals = new AtomicInteger();
    String tasks = endpoint.path() + "/tasks";
    TaskEndReader reader = new TaskEndReader(api, tasks);
    RedisProbe probe = RedisProbe.start(context);
    long start = System.nanoTime();
    try {
      InFlight.run(
          total,
          SUBMITTERS,
          i -> {
            long slot = start + (long) (i * 1e9 / rate);
            long wait = slot - System.nanoTime();
            if (wait > 0) {
              Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long finishBy =
                System.currentTimeMillis()
                    + ThreadLocalRandom.current()
                        .nextLong(counts.deadlineMinMs(), counts.deadlineMaxMs() + 1);
            String body =
                "{\"finish_by\": "
                    + finishBy
                    + ", \"headers\": {\""
                    + CapacityTarget.SERIAL_HEADER
                    + "\": \""
                    + i
                    + "\"}}";
            Http11Connection.Answer answer = api.post(tasks, body, 202, 429);
            JsonNode json = JSON.readTree(answer.body());
            if (answer.status() == 202) {
              String id = json.path("id").asText();
              accepted.put((long) i, new Accepted(i, id, finishBy));
              reader.readAfter(id, finishBy);
            } else if ("deadline_unreachable".equals(json.path("error").asText())) {
              refused.add((long) i);
            } else {
              otherRefusals.incrementAndGet();
            }
          });
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
    double submitSeconds = (System.nanoTime() - start) / 1e9;
    Map<String, String> statuses;
    try (reader) {
      statuses =
          reader.awaitEnds(
              accepted.size(), Duration.ofMillis(counts.deadlineMaxMs()).plusMinutes(1));
    }
    RedisProbe.Cost cost = probe.finish("deadline_miss_share", total);
    List<Accepted> acceptedList = List.copyOf(accepted.values());
    endpoint.delete(context);

    Map<Long, Long> servedAtNanos = new HashMap<>();
    Map<Long, Integer> calls = new HashMap<>();
    for (CapacityTarget.Request request : target.requests()) {
      calls.merge(request.serial(), 1, Integer::sum);
      if (request.status() == 204) {
        servedAtNanos.merge(request.serial(), request.endNanos(), Math::max);
      }
    }
    int onTime = 0;
    int late = 0;
    int expired = 0;
    int otherEnds = 0;
    Set<Long> expiredSerials = new HashSet<>();
    for (Accepted task : acceptedList) {
      String status = statuses.get(task.id());
      Long served = servedAtNanos.get(task.serial());
      if ("succeeded".equals(status) && served != null) {
        double servedAtMs = epochAtStart + (served - nanosAtStart) / 1e6;
        if (servedAtMs <= task.finishBy()) {
          onTime++;
        } else {
          late++;
        }
      } else if ("timed_out".equals(status)) {
        expired++;
        expiredSerials.add(task.serial());
      } else {
        otherEnds++;
      }
    }
    long badCalls = 0;
    for (long serial : refused) {
      badCalls += calls.getOrDefault(serial, 0);
    }
    for (long serial : expiredSerials) {
      badCalls += calls.getOrDefault(serial, 0);
    }
    int missed = late + expired + otherEnds;
    double missShare = acceptedList.isEmpty() ? 0 : missed / (double) acceptedList.size();
    context.say(
        "deadline: %,d submits in %.1f s: %,d answered 202, %,d refused 429 deadline_unreachable,"
            + " %,d refused otherwise; of the 202s: %,d served on time, %,d served late, %,d"
            + " timed out unserved, %,d ended otherwise; %,d requests reached the target, %d of"
            + " them for refused or timed-out tasks",
        total,
        submitSeconds,
        acceptedList.size(),
        refused.size(),
        otherRefusals.get(),
        onTime,
        late,
        expired,
        otherEnds,
        target.requests().size(),
        badCalls);
    if (acceptedList.isEmpty()) {
      throw new IllegalStateException("deadline: no task was answered 202");
    }
    return List.of(
        new Figure(
            "deadline_miss_share",
            missShare,
            Figure.Unit.SHARE,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            acceptedList.size()),
        new Figure(
            "refused_or_expired_endpoint_calls",
            badCalls,
            Figure.Unit.COUNT,
            cost.redisMicrosPerJob(),
            cost.benchMicrosPerJob(),
            total));
  }
}
