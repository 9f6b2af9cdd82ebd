package io.lineup.bench;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lineup.bench.report.Figure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code floor_publish_us} and {@code floor_consume_us}: the least Redis CPU a job can cost on this
 * Redis, the yardstick for the engine's own Redis CPU per job. Minimal batched Lua scripts with no
 * events, options, retries or limits ({@code floor_publish.lua}: a sorted-set member and a hash
 * field per job; {@code floor_consume.lua}: ZPOPMIN, HMGET and ZADD to a leased set, with the acks
 * of the previous call riding along as ZREM and HDEL) run on the bench's Redis through the engine's
 * client library, batched as the engine batches: {@link BulkPublishScenario#JOBS_PER_CALL} jobs per
 * publish call, {@link ConsumeScenario#WORKER_CONCURRENCY} per lease call. Each figure is Redis's
 * CPU time ({@code INFO cpu}) of its measured phase divided by its jobs, in µs, like the {@code
 * redis µs/job} column of the other figures.
 *
 * <p>Each round uses a fresh set of keys: a publish round measures publishing {@link
 * Counts#consumeJobs()} jobs; a consume round publishes as many (not measured) and measures
 * draining them. When the consume group runs, its rounds take turns with the floor's consume rounds
 * ({@link ConsumeScenario}), so each engine drain is judged against a floor drain run next to it on
 * the shared host; otherwise {@code floor_consume_us} is the median of its own rounds.
 */
final class FloorScenario implements AutoCloseable {
  /** Publish calls in flight at once, as for {@code publish_bulk_per_s}. */
  static final int PUBLISH_IN_FLIGHT = BulkPublishScenario.IN_FLIGHT;

  /** Deadline written for every floor lease: far ahead; nothing reclaims the floor's leases. */
  private static final byte[] DEADLINE = text(Long.MAX_VALUE / 2);

  private final BenchContext context;
  private final StatefulRedisConnection<byte[], byte[]> connection;
  private final Floor floor;

  private FloorScenario(BenchContext context, StatefulRedisConnection<byte[], byte[]> connection) {
    this.context = context;
    this.connection = connection;
    this.floor = new Floor(connection);
  }

  /**
   * Connects, loads the floor's scripts and warms them up with a small publish and drain.
   *
   * @return the floor, to be closed when its last round has run
   */
  static FloorScenario open(BenchContext context) {
    StatefulRedisConnection<byte[], byte[]> connection = context.redis().connect();
    try {
      FloorScenario scenario = new FloorScenario(context, connection);
      Counts counts = context.counts();
      int warmJobs = counts.warmup(counts.consumeJobs());
      context.say("floor: warm-up, %,d jobs published and consumed", warmJobs);
      Keys warm = Keys.fresh();
      scenario.floor.publish(warm, warmJobs);
      scenario.floor.consume(warm);
      warm.drop(connection.sync());
      return scenario;
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
  }

  /** {@code floor_publish_us}: the median of {@link Counts#rounds()} publish rounds. */
  Figure publishFigure() {
    return Rounds.median(context, context.counts().rounds(), this::publishRound);
  }

  /** {@code floor_consume_us} alone: the median of {@link Counts#rounds()} consume rounds. */
  Figure consumeFigure() {
    return Rounds.median(context, context.counts().rounds(), this::consumeRound);
  }

  /** One publish round: {@link Counts#consumeJobs()} jobs published into fresh keys, measured. */
  Figure publishRound(int round) {
    int jobs = context.counts().consumeJobs();
    Keys keys = Keys.fresh();
    context.say(
        "floor_publish_us: %,d jobs, %d per call, %d calls in flight",
        jobs, BulkPublishScenario.JOBS_PER_CALL, PUBLISH_IN_FLIGHT);
    RedisProbe probe = RedisProbe.start(context);
    floor.publish(keys, jobs);
    Figure figure = figure("floor_publish_us", probe.finish("floor_publish_us", jobs), jobs);
    keys.drop(connection.sync());
    return figure;
  }

  /**
   * One consume round: {@link Counts#consumeJobs()} jobs published into fresh keys (not measured),
   * then drained, measured.
   *
   * @throws IllegalStateException when the drain leased fewer jobs than were published
   */
  Figure consumeRound(int round) {
    int jobs = context.counts().consumeJobs();
    Keys keys = Keys.fresh();
    floor.publish(keys, jobs);
    context.say(
        "floor_consume_us: %,d jobs waiting, %d per lease call",
        jobs, ConsumeScenario.WORKER_CONCURRENCY);
    RedisProbe probe = RedisProbe.start(context);
    long consumed = floor.consume(keys);
    Figure figure =
        figure("floor_consume_us", probe.finish("floor_consume_us", consumed), consumed);
    keys.drop(connection.sync());
    if (consumed != jobs) {
      throw new IllegalStateException(
          "floor_consume_us: " + consumed + " jobs consumed of " + jobs + " published");
    }
    return figure;
  }

  @Override
  public void close() {
    connection.close();
  }

  private static Figure figure(String name, RedisProbe.Cost cost, long jobs) {
    return new Figure(
        name,
        cost.redisMicrosPerJob(),
        Figure.Unit.MICROSECONDS,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        jobs);
  }

  /** The floor's three keys, with one hash tag so they share a Redis Cluster slot. */
  private record Keys(byte[] line, byte[] records, byte[] leased) {
    static Keys fresh() {
      String tag =
          BenchContext.NAMESPACE
              + ":floor:{"
              + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36)
              + "}:";
      return new Keys(text(tag + "line"), text(tag + "records"), text(tag + "leased"));
    }

    byte[][] all() {
      return new byte[][] {line, records, leased};
    }

    void drop(RedisCommands<byte[], byte[]> commands) {
      commands.unlink(all());
    }
  }

  /** The two scripts, loaded on one connection. */
  private static final class Floor {
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final String publishSha;
    private final String consumeSha;

    Floor(StatefulRedisConnection<byte[], byte[]> connection) {
      this.connection = connection;
      this.publishSha = connection.sync().scriptLoad(script("floor_publish.lua"));
      this.consumeSha = connection.sync().scriptLoad(script("floor_consume.lua"));
    }

    /** Publishes {@code jobs} jobs (whole calls of 100, the last one shorter) in arrival order. */
    void publish(Keys keys, int jobs) {
      byte[] payload = Payloads.payload();
      int per = BulkPublishScenario.JOBS_PER_CALL;
      int calls = (jobs + per - 1) / per;
      InFlight.runAsync(
          calls,
          PUBLISH_IN_FLIGHT,
          call -> {
            int first = call * per;
            int n = Math.min(per, jobs - first);
            byte[][] args = new byte[3 * n][];
            for (int j = 0; j < n; j++) {
              long arrival = first + j;
              args[3 * j] = text(arrival);
              args[3 * j + 1] = text("~" + Long.toString(arrival, 36));
              args[3 * j + 2] = payload;
            }
            return connection
                .async()
                .<Long>evalsha(
                    publishSha,
                    ScriptOutputType.INTEGER,
                    new byte[][] {keys.line, keys.records},
                    args);
          });
    }

    /**
     * Leases until the line is empty, each call carrying the acks of the jobs the previous one
     * leased, then acks the last ones; returns the jobs leased.
     */
    long consume(Keys keys) {
      byte[] count = text(ConsumeScenario.WORKER_CONCURRENCY);
      List<byte[]> acks = new ArrayList<>();
      long leased = 0;
      while (true) {
        List<Object> reply = call(keys, count, acks);
        acks.clear();
        for (int i = 0; i < reply.size(); i += 2) {
          acks.add((byte[]) reply.get(i));
        }
        leased += acks.size();
        if (acks.isEmpty()) {
          return leased;
        }
        if (reply.size() / 2 < ConsumeScenario.WORKER_CONCURRENCY) {
          call(keys, text(0), acks);
          return leased;
        }
      }
    }

    private List<Object> call(Keys keys, byte[] count, List<byte[]> acks) {
      byte[][] args = new byte[2 + acks.size()][];
      args[0] = count;
      args[1] = DEADLINE;
      for (int i = 0; i < acks.size(); i++) {
        args[2 + i] = acks.get(i);
      }
      return connection
          .sync()
          .<List<Object>>evalsha(consumeSha, ScriptOutputType.MULTI, keys.all(), args);
    }
  }

  private static String script(String name) {
    try (InputStream in = FloorScenario.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("The bench jar lacks its script " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] text(long number) {
    return text(Long.toString(number));
  }

  private static byte[] text(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
