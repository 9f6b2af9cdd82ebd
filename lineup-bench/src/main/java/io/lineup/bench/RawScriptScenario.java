package io.lineup.bench;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lineup.bench.report.Figure;

/**
 * {@code raw_script_per_s}: the reference. EVALSHA of {@code return 1} through Lettuce (the
 * engine's client library, set up as the engine sets it up: bytes codec, no latency collector) on
 * one connection, {@link #IN_FLIGHT} calls in flight. Every other figure is compared with it, since
 * it is the most script calls per second this Redis, client and machine manage together.
 */
final class RawScriptScenario {
  /** Calls in flight at once. */
  static final int IN_FLIGHT = 64;

  private static final String SCRIPT = "return 1";

  private RawScriptScenario() {}

  static Figure run(BenchContext context) {
    Counts counts = context.counts();
    try (StatefulRedisConnection<byte[], byte[]> connection = context.redis().connect()) {
      RedisAsyncCommands<byte[], byte[]> commands = connection.async();
      String sha = connection.sync().scriptLoad(SCRIPT);
      int warmCalls = counts.warmup(counts.rawCalls());
      context.say("raw_script_per_s: warm-up, rounds of %,d calls", warmCalls);
      SteadyWarmup.run(
          context, "raw_script_per_s", warmCalls, () -> call(commands, sha, warmCalls));
      context.say("raw_script_per_s: %,d calls, %d in flight", counts.rawCalls(), IN_FLIGHT);
      RedisProbe probe = RedisProbe.start(context);
      long nanos = call(commands, sha, counts.rawCalls());
      RedisProbe.Cost cost = probe.finish("raw_script_per_s", counts.rawCalls());
      return new Figure(
          "raw_script_per_s",
          BenchContext.perSecond(counts.rawCalls(), nanos),
          Figure.Unit.PER_SECOND,
          cost.redisMicrosPerJob(),
          cost.benchMicrosPerJob(),
          counts.rawCalls());
    }
  }

  /** Makes {@code calls} calls, never more than {@link #IN_FLIGHT} unanswered; returns nanos. */
  private static long call(RedisAsyncCommands<byte[], byte[]> commands, String sha, int calls) {
    return InFlight.runAsync(
        calls,
        IN_FLIGHT,
        i -> commands.<Object>evalsha(sha, ScriptOutputType.OBJECT, new byte[0][]));
  }
}
