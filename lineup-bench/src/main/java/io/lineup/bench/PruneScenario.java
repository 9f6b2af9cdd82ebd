package io.lineup.bench;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lineup.bench.report.Figure;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.internal.store.LuaScript;
import io.lineup.core.internal.store.PublishWire;
import io.lineup.core.internal.store.ScriptLibrary;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import java.util.List;

/**
 * {@code script_publish_us} and {@code script_publish_unpruned_us}: what the script loader's
 * pruning saves. The publish script is run for one job per call (the case where a script's fixed
 * cost weighs most) as the engine sends it, with the helper functions it does not use left out, and
 * as it would be with every function of its helpers; each figure is the Redis CPU per call, in µs.
 * Lua builds a closure for every {@code local function} on every call, so the pruned script should
 * cost less; the target keeps pruning only while it saves at least 5 %. The two take turns round by
 * round and the pair with the median ratio is reported.
 */
final class PruneScenario {
  /** Calls in flight at once, as for the reference. */
  static final int IN_FLIGHT = 64;

  private PruneScenario() {}

  static List<Figure> run(BenchContext context) {
    Counts counts = context.counts();
    try (StatefulRedisConnection<byte[], byte[]> connection = context.redis().connect()) {
      RedisAsyncCommands<byte[], byte[]> commands = connection.async();
      LuaScript pruned = ScriptLibrary.load("publish");
      LuaScript whole = ScriptLibrary.loadUnpruned("publish");
      connection.sync().scriptLoad(pruned.source());
      connection.sync().scriptLoad(whole.source());
      byte[][] args = PublishWire.arguments("", List.of(NewJob.of(Payloads.payload())));
      int calls = counts.publishJobs();
      context.say(
          "script_publish_us: %d and %d local functions, %,d calls per round",
          functions(pruned), functions(whole), calls);
      QueueName warm = context.freshQueue("prune-warmup");
      call(commands, pruned, warm, args, counts.warmup(calls));
      call(commands, whole, warm, args, counts.warmup(calls));
      context.redis().dropQueue(warm);
      return Rounds.medianPair(
          context,
          counts.rounds(),
          round -> measure(context, commands, whole, "script_publish_unpruned_us", args, calls),
          round -> measure(context, commands, pruned, "script_publish_us", args, calls));
    }
  }

  private static Figure measure(
      BenchContext context,
      RedisAsyncCommands<byte[], byte[]> commands,
      LuaScript script,
      String name,
      byte[][] args,
      int calls) {
    QueueName queue = context.freshQueue(name);
    RedisProbe probe = RedisProbe.start(context);
    call(commands, script, queue, args, calls);
    RedisProbe.Cost cost = probe.finish(name, calls);
    context.redis().dropQueue(queue);
    return new Figure(
        name,
        cost.redisMicrosPerJob(),
        Figure.Unit.MICROSECONDS,
        cost.redisMicrosPerJob(),
        cost.benchMicrosPerJob(),
        calls);
  }

  private static void call(
      RedisAsyncCommands<byte[], byte[]> commands,
      LuaScript script,
      QueueName queue,
      byte[][] args,
      int calls) {
    byte[][] keys = KeySpace.queueKeys(queue);
    InFlight.runAsync(
        calls,
        IN_FLIGHT,
        i -> commands.<Object>evalsha(script.sha1(), ScriptOutputType.OBJECT, keys, args));
  }

  private static long functions(LuaScript script) {
    return script.source().lines().filter(line -> line.startsWith("local function ")).count();
  }
}
