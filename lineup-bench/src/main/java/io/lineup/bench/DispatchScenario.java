package io.lineup.bench;

import io.lineup.bench.report.Figure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * API dispatch end to end, through a server process to a no-op HTTP target on this machine ({@link
 * NoOpTarget}):
 *
 * <ul>
 *   <li>{@code dispatch_per_s}: tasks submitted over HTTP ({@value #IN_FLIGHT} requests in flight)
 *       to an endpoint with a concurrency cap of 64 and no rate limit, per second from the first
 *       submit to the last request's arrival at the target.
 *   <li>{@code dispatch_start_ms_p99}: tasks submitted with a due time ({@code not_before}) 300 ms
 *       ahead, at about 100 per second (the endpoint under its limits); the 99th percentile of
 *       arrival at the target minus the due time.
 *   <li>{@code dispatch_rate_error} and {@code dispatch_rate_achieved}: an endpoint limited to
 *       {@value #RATE} per second, with {@value #RATE} × the run's seconds tasks waiting; the most
 *       arrivals at the target in any sliding second ÷ {@value #RATE}, and the mean arrivals per
 *       whole second ÷ {@value #RATE}.
 * </ul>
 */
final class DispatchScenario {
  static final int IN_FLIGHT = 64;
  static final int RATE = 200;
  private static final String NS = "bench";

  private final BenchContext context;
  private final HttpApi api;
  private final ServerProcess server;
  private final NoOpTarget target;
  private final Map<String, Long> arrivals = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Long> arrivalOrder = new ConcurrentLinkedQueue<>();
  private final AtomicLong count = new AtomicLong();
  private final long epochAtStart = System.currentTimeMillis();
  private final long nanosAtStart = System.nanoTime();

  private DispatchScenario(BenchContext context, HttpApi api, ServerProcess server)
      throws IOException {
    this.context = context;
    this.api = api;
    this.server = server;
    this.target =
        new NoOpTarget((now, key) -> {
          if (key != null) {
            arrivals.put(key, now);
          }
          arrivalOrder.add(now);
          count.incrementAndGet();
        });
  }

  /** Runs the dispatch figures against a started server. */
  static List<Figure> run(BenchContext context, HttpApi api, ServerProcess server) {
    try {
      DispatchScenario scenario = new DispatchScenario(context, api, server);
      try {
        List<Figure> figures = new ArrayList<>();
        figures.add(scenario.throughput());
        figures.add(scenario.startLatency());
        figures.addAll(scenario.rate());
        return figures;
      } finally {
        scenario.target.close();
      }
    } catch (IOException e) {
      throw new IllegalStateException("dispatch scenario failed: " + e.getMessage(), e);
    }
  }

  private String targetUrl() {
    return "http://127.0.0.1:" + target.port();
  }

  private int size(int full, int quick, int smoke) {
    return switch (context.counts().mode()) {
      case "full" -> full;
      case "quick" -> quick;
      default -> smoke;
    };
  }

  private String endpoint(String name, String settings) {
    String path = "/v1/endpoints/" + NS + "/" + name;
    String body = "{\"base_url\": \"" + targetUrl() + "\", " + settings + "}";
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(server.base() + path))
            .header("Authorization", "Bearer " + server.token())
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<String> answer = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (answer.statusCode() / 100 != 2) {
        throw new IllegalStateException("PUT " + path + " answered " + answer.body());
      }
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("PUT " + path + " failed", e);
    }
    return path;
  }

  private void awaitArrivals(long expected, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (count.get() < expected) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "dispatch: " + count.get() + " of " + expected + " requests arrived in " + timeout);
      }
      Thread.sleep(5);
    }
  }

  private Figure throughput() {
    int tasks = size(50_000, 5_000, 300);
    String ep = endpoint("throughput", "\"concurrency\": 64");
    try {
      int warm = context.counts().warmup(tasks);
      context.say("dispatch_per_s: warm-up %,d tasks", warm);
      long before = count.get();
      InFlight.run(warm, IN_FLIGHT, i -> api.post(ep + "/tasks", "{}", 202));
      awaitArrivals(before + warm, Duration.ofMinutes(2));
      context.say("dispatch_per_s: %,d tasks, %d submits in flight", tasks, IN_FLIGHT);
      RedisProbe probe = RedisProbe.start(context);
      long serverCpu = server.cpuMicros();
      long start = System.nanoTime();
      long base = count.get();
      InFlight.run(tasks, IN_FLIGHT, i -> api.post(ep + "/tasks", "{}", 202));
      awaitArrivals(base + tasks, Duration.ofMinutes(5));
      long nanos = System.nanoTime() - start;
      RedisProbe.Cost cost = probe.finish("dispatch_per_s", tasks);
      context.say(
          "dispatch_per_s: %,.0f tasks/s; the server process used %.1f µs of CPU per task; the"
              + " target has accepted %d connections",
          BenchContext.perSecond(tasks, nanos),
          (server.cpuMicros() - serverCpu) / (double) tasks,
          target.connectionsAccepted());
      return new Figure(
          "dispatch_per_s",
          BenchContext.perSecond(tasks, nanos),
          Figure.Unit.PER_SECOND,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          tasks);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The {@code Idempotency-Key} the target will see for a submitted task: its {@code delivery_key},
   * or its id from a server that draws no delivery keys (an older jar given with {@code
   * --server-jar}).
   */
  private static String idempotencyKey(String submitAnswer) {
    String field = "\"delivery_key\":\"";
    int at = submitAnswer.indexOf(field);
    if (at < 0) {
      field = "\"id\":\"";
      at = submitAnswer.indexOf(field);
    }
    at += field.length();
    return submitAnswer.substring(at, submitAnswer.indexOf('"', at));
  }

  private Figure startLatency() {
    int tasks = size(2_000, 500, 100);
    String ep = endpoint("start", "\"concurrency\": 64");
    try {
      context.say("dispatch_start_ms_p99: %,d tasks due 300 ms after their submit", tasks);
      RedisProbe probe = RedisProbe.start(context);
      long base = count.get();
      Map<String, Long> dueAt = new ConcurrentHashMap<>();
      long pace = 10_000_000L; // about 100 submits per second
      long next = System.nanoTime();
      for (int i = 0; i < tasks; i++) {
        long due = System.currentTimeMillis() + 300;
        String answer = api.post(ep + "/tasks", "{\"not_before\": " + due + "}", 202).body();
        dueAt.put(idempotencyKey(answer), due);
        next += pace;
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        }
      }
      awaitArrivals(base + tasks, Duration.ofMinutes(2));
      double[] late = new double[tasks];
      int n = 0;
      for (var entry : dueAt.entrySet()) {
        Long arrived = arrivals.get(entry.getKey());
        if (arrived != null) {
          double arrivedEpochMs = epochAtStart + (arrived - nanosAtStart) / 1e6;
          late[n++] = arrivedEpochMs - entry.getValue();
        }
      }
      double[] sorted = Arrays.copyOf(late, n);
      Arrays.sort(sorted);
      double p99 = sorted[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)];
      context.say(
          "dispatch_start_ms_p99: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          sorted[n / 2], p99, sorted[n - 1]);
      RedisProbe.Cost cost = probe.finish("dispatch_start_ms_p99", n);
      return new Figure(
          "dispatch_start_ms_p99",
          Math.max(0.001, p99),
          Figure.Unit.MILLISECONDS,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          n);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<Figure> rate() {
    int seconds = size(10, 5, 3);
    int tasks = RATE * seconds;
    String name = "rate";
    String settings = "\"rate\": " + RATE + ", \"concurrency\": 64";
    String ep = endpoint(name, settings + ", \"paused\": true");
    try {
      context.say("dispatch_rate_error: %,d tasks at a limit of %d/s", tasks, RATE);
      InFlight.run(tasks, IN_FLIGHT, i -> api.post(ep + "/tasks", "{}", 202));
      arrivalOrder.clear();
      long base = count.get();
      RedisProbe probe = RedisProbe.start(context);
      endpoint(name, settings);
      awaitArrivals(base + tasks, Duration.ofSeconds(seconds * 3L + 30));
      List<Long> times = new ArrayList<>(arrivalOrder);
      times.sort(null);
      int busiest = 0;
      for (int start = 0, end = 0; start < times.size(); start++) {
        while (end < times.size() && times.get(end) - times.get(start) < 1_000_000_000L) {
          end++;
        }
        busiest = Math.max(busiest, end - start);
      }
      long first = times.get(0);
      int whole = (int) ((times.get(times.size() - 1) - first) / 1_000_000_000L);
      int[] perSecond = new int[whole + 1];
      times.forEach(t -> perSecond[(int) ((t - first) / 1_000_000_000L)]++);
      double mean = Arrays.stream(perSecond, 0, Math.max(1, whole)).average().orElse(0);
      context.say(
          "dispatch_rate_error: busiest second %d, per whole second %s",
          busiest, Arrays.toString(perSecond));
      RedisProbe.Cost cost = probe.finish("dispatch_rate_error", tasks);
      return List.of(
          new Figure(
              "dispatch_rate_error",
              busiest / (double) RATE,
              Figure.Unit.RATIO,
              cost.redisMicrosPerJob(),
              cost.benchMicrosPerJob(),
              tasks),
          new Figure(
              "dispatch_rate_achieved",
              mean / RATE,
              Figure.Unit.RATIO,
              cost.redisMicrosPerJob(),
              cost.benchMicrosPerJob(),
              tasks));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
