package io.lineup.core;

import io.lineup.core.internal.Args;
import io.lineup.core.internal.Replies;
import io.lineup.core.internal.ScriptLibrary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Lists, respawns and purges dead letters, in batches so no script runs long. */
final class DeadLetters {
  static final int BATCH = 1000;
  private final Engine engine;

  DeadLetters(Engine engine) {
    this.engine = engine;
  }

  DeadPage list(QueueName queue, int offset, int count) {
    Checks.page(offset, count);
    List<Object> r =
        Replies.asList(
            engine.run(
                ScriptLibrary.DEAD_LIST, queue, new Args(2).add(offset).add(count).toArray()));
    List<DeadJob> jobs = new ArrayList<>(r.size() - 1);
    for (int i = 1; i < r.size(); i++) {
      List<Object> job = Replies.asList(r.get(i));
      jobs.add(
          new DeadJob(
              Replies.asString(job.get(0)),
              Replies.asBytes(job.get(1)),
              (int) Replies.asLong(job.get(2)),
              (int) Replies.asLong(job.get(3)),
              Replies.asOptionalString(job.get(4)),
              Instant.ofEpochMilli(Replies.asLong(job.get(5)))));
    }
    return new DeadPage(Replies.asLong(r.get(0)), jobs);
  }

  int respawn(QueueName queue, List<String> ids, Duration ttl) {
    if (ids == null || ids.isEmpty() || ids.size() > Limits.MAX_BATCH) {
      throw new InvalidArgumentException("ids", "give 1 to " + Limits.MAX_BATCH + " job ids");
    }
    ids.forEach(Checks::id);
    Checks.duration("ttl", ttl, 1, Limits.MAX_TTL_MS);
    Args args =
        new Args(3 + ids.size()).add(engine.now()).add(ttl == null ? 0 : ttl.toMillis()).add("ids");
    ids.forEach(args::add);
    return (int)
        Replies.asLong(
            Replies.asList(engine.run(ScriptLibrary.RESPAWN, queue, args.toArray())).get(0));
  }

  long respawnOldest(QueueName queue, long count, Duration ttl) {
    if (count < 1) {
      throw new InvalidArgumentException("count", "must be at least 1");
    }
    Checks.duration("ttl", ttl, 1, Limits.MAX_TTL_MS);
    long done = 0;
    while (done < count) {
      long batch = Math.min(BATCH, count - done);
      Args args =
          new Args(4)
              .add(engine.now())
              .add(ttl == null ? 0 : ttl.toMillis())
              .add("oldest")
              .add(batch);
      List<Object> r = Replies.asList(engine.run(ScriptLibrary.RESPAWN, queue, args.toArray()));
      long moved = Replies.asLong(r.get(0));
      done += moved;
      if (moved == 0 || Replies.asLong(r.get(1)) == 0) {
        break;
      }
    }
    return done;
  }

  long purge(QueueName queue) {
    long purged = 0;
    while (true) {
      List<Object> r =
          Replies.asList(
              engine.run(
                  ScriptLibrary.PURGE, queue, new Args(2).add(engine.now()).add(BATCH).toArray()));
      purged += Replies.asLong(r.get(0));
      if (Replies.asLong(r.get(0)) == 0 || Replies.asLong(r.get(1)) == 0) {
        return purged;
      }
    }
  }
}
