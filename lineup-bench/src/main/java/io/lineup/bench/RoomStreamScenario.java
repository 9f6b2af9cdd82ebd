package io.lineup.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lineup.bench.report.Figure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ticket event streams through the server ({@code GET .../tickets/{id}/events}), each stream a
 * connection of its own from the JDK's HTTP client, read by a virtual thread:
 *
 * <ul>
 *   <li>{@code room_streams_idle_cpu}: {@link RoomCounts#streams()} streams of waiting tickets of a
 *       full room whose line does not move; the server's CPU over {@link #IDLE_WINDOW} (cores, from
 *       the process's CPU time), beside {@code room_streams_idle_redis_ops} (Redis's
 *       total_commands_processed over the same window, per second) and {@code
 *       room_stream_rss_bytes} (the server's VmRSS with the streams open less before, per stream).
 *   <li>{@code room_join_ms_p99} and {@code room_join_streams_ratio}: the 99th percentile of a
 *       join's answer time with those streams open, and its ratio to the same without them.
 *   <li>{@code room_event_ms_p99}: {@link RoomCounts#eventStreams()} streams of a room of one slot
 *       whose admitted ticket leaves every {@link #LEAVE_EVERY_MS} ms (the server admits the next
 *       at once), so the line moves at 25 admissions a second: from each ticket's admitted_at (the
 *       room's record) to the arrival of its admission event here (one machine, one clock).
 * </ul>
 */
final class RoomStreamScenario {
  /** How long the idle streams are measured. */
  static final Duration IDLE_WINDOW = Duration.ofSeconds(10);

  /** The JIT compiler's CPU per second under which the server counts as settled, in ms. */
  static final long SETTLED_COMPILER_MS = 10;

  /** The longest wait for the JIT compiler to settle before a measurement. */
  static final Duration SETTLE_LIMIT = Duration.ofSeconds(60);

  /** How long the server's CPU is measured with no stream open. */
  static final Duration BASELINE_WINDOW = Duration.ofSeconds(5);

  /**
   * How often the moving room's admitted ticket leaves, in ms: 40, so the line moves at 25
   * admissions a second. (A room's {@code admit_per_minute} limits a sliding minute, which admits a
   * waiting crowd in one burst: it does not pace a line.)
   */
  static final long LEAVE_EVERY_MS = 40;

  /** Joins in flight when timing joins. */
  static final int JOINS_IN_FLIGHT = 8;

  /** Stream opens in flight. */
  static final int OPENS_IN_FLIGHT = 64;

  private static final ObjectMapper JSON = new ObjectMapper();

  private RoomStreamScenario() {}

  /** One open stream and what it saw. */
  private static final class Stream {
    final InputStream body;
    final CountDownLatch admitted = new CountDownLatch(1);
    volatile long lateMs = -1;

    Stream(InputStream body) {
      this.body = body;
    }

    void read() {
      try (BufferedReader lines =
          new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
        String line;
        while ((line = lines.readLine()) != null) {
          if (line.startsWith("data: ") && line.contains("\"status\":\"admitted\"")) {
            long at = System.currentTimeMillis();
            JsonNode view = JSON.readTree(line.substring(6));
            lateMs = at - view.path("admitted_at").asLong();
            admitted.countDown();
          }
        }
      } catch (IOException e) {
        // Closed by the bench, or the stream ended.
      }
    }

    void close() {
      try {
        body.close();
      } catch (IOException ignored) {
        // Closing is all that is wanted.
      }
    }
  }

  static List<Figure> run(
      BenchContext context, RoomCounts counts, HttpApi api, ServerProcess server) {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    try {
      List<Figure> figures = new ArrayList<>(idle(context, counts, api, server, client));
      figures.add(moving(context, counts, api, server, client));
      return figures;
    } catch (IOException e) {
      throw new IllegalStateException("room streams: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("room streams: interrupted", e);
    } finally {
      // Not close(), which waits for every exchange: a stream left open would never end.
      client.shutdownNow();
    }
  }

  private static List<Figure> idle(
      BenchContext context, RoomCounts counts, HttpApi api, ServerProcess server, HttpClient client)
      throws IOException, InterruptedException {
    String room = room(context, api, "stream-idle", "{\"max_active\": 1, \"grace_ms\": 3600000}");
    String joinRoom =
        room(context, api, "stream-join", "{\"max_active\": 1, \"grace_ms\": 3600000}");
    int n = counts.streams();
    context.say("room_streams_idle_cpu: %,d tickets join", n + 1);
    // The first alone, so that it is the one holding the slot: the others wait.
    List<String> tickets = new ArrayList<>(join(api, room, 1));
    tickets.addAll(join(api, room, n));
    double joinAlone = joinP99(api, joinRoom, counts.timedJoins());
    settle(context, server);
    // The server's CPU with no stream open (its admission, sweep and settings loops), for the
    // progress line: what the streams add is the figure less this.
    long baseCpu = server.cpuMicros();
    long baseStart = System.nanoTime();
    Thread.sleep(BASELINE_WINDOW.toMillis());
    double baseCores =
        (server.cpuMicros() - baseCpu) / 1e3 / ((System.nanoTime() - baseStart) / 1e6);
    long rssBefore = server.rssBytes();
    context.say("room_streams_idle_cpu: %,d streams open", n);
    List<Stream> streams = open(api, server, client, room, tickets.subList(1, n + 1));
    awaitStreams(api, n);
    settle(context, server);
    long rss = server.rssBytes() - rssBefore;
    RedisProbe probe = RedisProbe.start(context);
    long cpu = server.cpuMicros();
    long compilerCpu = server.compilerCpuMicros();
    long commands = context.redis().totalCommands();
    long start = System.nanoTime();
    Thread.sleep(IDLE_WINDOW.toMillis());
    double seconds = (System.nanoTime() - start) / 1e9;
    double cores = (server.cpuMicros() - cpu) / 1e6 / seconds;
    double compilerCores = (server.compilerCpuMicros() - compilerCpu) / 1e6 / seconds;
    double ops = (context.redis().totalCommands() - commands) / seconds;
    RedisProbe.Cost idle = probe.finish("room_streams_idle_cpu", n);
    RedisProbe joinProbe = RedisProbe.start(context);
    double joinWith = joinP99(api, joinRoom, counts.timedJoins());
    RedisProbe.Cost joins = joinProbe.finish("room_join_ms_p99", counts.timedJoins());
    context.say(
        "room_streams_idle_cpu: %,d streams: %.3f cores (%.3f of them the JIT compiler's; %.3f"
            + " with none open), %,.0f Redis commands/s, %,d B RSS per stream; join p99 %.2f ms"
            + " with them, %.2f ms without",
        n, cores, compilerCores, baseCores, ops, rss / n, joinWith, joinAlone);
    streams.forEach(Stream::close);
    awaitStreams(api, 0);
    api.delete(room, 204);
    api.delete(joinRoom, 204);
    return List.of(
        figure("room_streams_idle_cpu", cores, Figure.Unit.RATIO, idle, n),
        figure("room_streams_idle_redis_ops", ops, Figure.Unit.PER_SECOND, idle, n),
        figure("room_stream_rss_bytes", Math.max(1, rss / n), Figure.Unit.BYTES, idle, n),
        figure("room_join_ms_p99", joinWith, Figure.Unit.MILLISECONDS, joins, n),
        figure("room_join_streams_ratio", joinWith / joinAlone, Figure.Unit.RATIO, joins, n));
  }

  /**
   * Waits until the server's JIT compiler is done with what the joins and openings made hot: until
   * its threads used under {@link #SETTLED_COMPILER_MS} ms of CPU in each of two consecutive
   * seconds, at most {@link #SETTLE_LIMIT}. Right after 2,000 openings the compiler alone used
   * about 0.1 core for more than 10 s, which would measure the warm-up, not what idle streams cost.
   */
  private static void settle(BenchContext context, ServerProcess server)
      throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + SETTLE_LIMIT.toNanos();
    int quietSeconds = 0;
    while (quietSeconds < 2 && System.nanoTime() < deadline) {
      long before = server.compilerCpuMicros();
      Thread.sleep(1_000);
      quietSeconds =
          server.compilerCpuMicros() - before < SETTLED_COMPILER_MS * 1_000 ? quietSeconds + 1 : 0;
    }
    long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
    context.say(
        quietSeconds >= 2
            ? "room_streams_idle_cpu: the server's JIT compiler settled in %d s"
            : "room_streams_idle_cpu: the server's JIT compiler still busy after %d s; measuring",
        waited);
  }

  private static Figure figure(
      String name, double value, Figure.Unit unit, RedisProbe.Cost cost, long jobs) {
    return new Figure(name, value, unit, cost.redisMicrosPerJob(), cost.benchMicrosPerJob(), jobs);
  }

  private static Figure moving(
      BenchContext context, RoomCounts counts, HttpApi api, ServerProcess server, HttpClient client)
      throws IOException, InterruptedException {
    int n = counts.eventStreams();
    String room = room(context, api, "stream-moving", "{\"max_active\": 1, \"grace_ms\": 3600000}");
    // One at a time, so that the line's order is the list's: the first holds the slot.
    List<String> tickets = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      tickets.add(
          JSON.readTree(api.post(room + "/tickets", "{}", 201).body()).path("ticket").asText());
    }
    List<Stream> streams = open(api, server, client, room, tickets.subList(1, n + 1));
    awaitStreams(api, n);
    context.say(
        "room_event_ms_p99: %,d streams, the line moves at %d admissions a second",
        n, 1_000 / LEAVE_EVERY_MS);
    RedisProbe probe = RedisProbe.start(context);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      // The admitted ticket gives its slot back once its stream told the admission (a user leaves
      // after being let in); the server admits the next at once.
      if (i > 0) {
        awaitAdmission(streams.get(i - 1));
      }
      api.delete(room + "/tickets/" + tickets.get(i), 200);
      long next = start + (i + 1) * TimeUnit.MILLISECONDS.toNanos(LEAVE_EVERY_MS);
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        TimeUnit.NANOSECONDS.sleep(sleep);
      }
    }
    double[] late = new double[n];
    for (int i = 0; i < n; i++) {
      awaitAdmission(streams.get(i));
      late[i] = Math.max(0, streams.get(i).lateMs);
    }
    RedisProbe.Cost cost = probe.finish("room_event_ms_p99", n);
    streams.forEach(Stream::close);
    awaitStreams(api, 0);
    api.delete(room, 204);
    Percentiles p = new Percentiles(late);
    context.say(
        "room_event_ms_p99: p50 %.0f ms, p99 %.0f ms, max %.0f ms", p.at(50), p.at(99), p.max());
    return figure("room_event_ms_p99", p.at(99), Figure.Unit.MILLISECONDS, cost, n);
  }

  private static void awaitAdmission(Stream stream) throws InterruptedException {
    if (!stream.admitted.await(60, TimeUnit.SECONDS)) {
      throw new IllegalStateException("room_event_ms_p99: a stream told no admission in 60 s");
    }
  }

  private static String room(BenchContext context, HttpApi api, String purpose, String settings)
      throws IOException {
    String room = "/v1/rooms/" + BenchContext.NAMESPACE + "/" + context.freshQueue(purpose).name();
    api.put(room, settings, 201);
    return room;
  }

  private static List<String> join(HttpApi api, String room, int n) {
    String[] ids = new String[n];
    InFlight.run(
        n,
        OPENS_IN_FLIGHT,
        i ->
            ids[i] =
                JSON.readTree(api.post(room + "/tickets", "{}", 201).body())
                    .path("ticket")
                    .asText());
    return List.of(ids);
  }

  /** The 99th percentile of the answer times of {@code n} joins, in ms. */
  private static double joinP99(HttpApi api, String room, int n) {
    double[] ms = new double[n];
    InFlight.run(
        n,
        JOINS_IN_FLIGHT,
        i -> {
          long start = System.nanoTime();
          api.post(room + "/tickets", "{}", 201);
          ms[i] = (System.nanoTime() - start) / 1e6;
        });
    return new Percentiles(ms).at(99);
  }

  /** Opens a stream per ticket; the list is in the tickets' order. */
  private static List<Stream> open(
      HttpApi api, ServerProcess server, HttpClient client, String room, List<String> tickets) {
    Stream[] opened = new Stream[tickets.size()];
    InFlight.run(
        tickets.size(),
        OPENS_IN_FLIGHT,
        i -> {
          HttpRequest request =
              HttpRequest.newBuilder(
                      URI.create(server.base() + room + "/tickets/" + tickets.get(i) + "/events"))
                  .header("Authorization", "Bearer " + server.token())
                  .header("Accept", "text/event-stream")
                  .build();
          HttpResponse<InputStream> response =
              client.send(request, HttpResponse.BodyHandlers.ofInputStream());
          if (response.statusCode() != 200) {
            throw new IOException("a stream answered " + response.statusCode());
          }
          Stream stream = new Stream(response.body());
          Thread.ofVirtual().start(stream::read);
          opened[i] = stream;
        });
    return List.of(opened);
  }

  /** Waits (up to 2 minutes) until the server counts {@code n} open streams. */
  private static void awaitStreams(HttpApi api, int n) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    double count = -1;
    while (System.nanoTime() < deadline) {
      count = streamsOpen(api);
      if (count == n) {
        return;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException(
        "the server counts " + count + " open streams, not " + n + ", after 2 minutes");
  }

  private static double streamsOpen(HttpApi api) throws IOException {
    for (String line : api.get("/metrics", 200).body().split("\n")) {
      if (line.startsWith("lineup_room_streams ")) {
        return Double.parseDouble(line.substring("lineup_room_streams ".length()).trim());
      }
    }
    return 0;
  }
}
