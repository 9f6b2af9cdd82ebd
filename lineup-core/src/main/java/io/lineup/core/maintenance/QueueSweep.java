package io.lineup.core.maintenance;

import io.lineup.core.QueueName;
import io.lineup.core.TimeSource;
import io.lineup.core.internal.Args;
import io.lineup.core.internal.KeySpace;
import io.lineup.core.internal.LuaScript;
import io.lineup.core.internal.RedisGateway;
import io.lineup.core.internal.Replies;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A background loop that runs one bounded script on every registered queue each round, again on a
 * queue while a call hit its limit. Every instance may run it at once: each call is atomic.
 */
public final class QueueSweep extends PeriodicTask {
  /** Most jobs one script call handles. */
  public static final int BATCH = 1000;

  /** Most calls per queue per round, so one busy queue cannot starve the others. */
  public static final int MAX_CALLS_PER_ROUND = 20;

  private final RedisGateway gateway;
  private final TimeSource time;
  private final LuaScript script;
  private final boolean withRandom;

  /**
   * @param name the loop's name (promote, reclaim, expire, retention)
   * @param script a script taking (now, limit[, rand]) and answering a count, or a list whose first
   *     item is one
   * @param withRandom whether the script takes a jitter random number as third argument
   */
  public QueueSweep(
      String name,
      Duration interval,
      RedisGateway gateway,
      TimeSource time,
      LuaScript script,
      boolean withRandom) {
    super(name, interval);
    this.gateway = gateway;
    this.time = time;
    this.script = script;
    this.withRandom = withRandom;
  }

  @Override
  protected void runOnce() {
    List<String> queues = gateway.queues();
    for (String member : queues) {
      byte[][] keys = KeySpace.queueKeys(QueueName.parse(member));
      for (int call = 0; call < MAX_CALLS_PER_ROUND; call++) {
        Args args = new Args(3).add(time.scriptArgument()).add(BATCH);
        if (withRandom) {
          args.add(ThreadLocalRandom.current().nextDouble());
        }
        Object reply = gateway.run(script, keys, args.toArray());
        long handled = Replies.asLong(Replies.asList(reply).get(0));
        if (handled < BATCH) {
          break;
        }
      }
    }
  }
}
