package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies.BatchReply;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.util.List;

/** Lists, respawns and purges dead letters, in batches so no script runs long. */
final class DeadLetters {
  static final int BATCH = 1000;
  private final RedisStore store;

  DeadLetters(Engine engine) {
    this.store = engine.store();
  }

  DeadPage list(QueueName queue, int offset, int count) {
    Checks.page(offset, count);
    return store.deadLetters(queue, offset, count);
  }

  int respawn(QueueName queue, List<String> ids, Duration ttl) {
    if (ids == null || ids.isEmpty() || ids.size() > Limits.MAX_BATCH) {
      throw new InvalidArgumentException("ids", "give 1 to " + Limits.MAX_BATCH + " job ids");
    }
    ids.forEach(Checks::id);
    Checks.duration("ttl", ttl, 1, Limits.MAX_TTL_MS);
    return (int) store.respawn(queue, ids, ttl).done();
  }

  long respawnOldest(QueueName queue, long count, Duration ttl) {
    if (count < 1) {
      throw new InvalidArgumentException("count", "must be at least 1");
    }
    Checks.duration("ttl", ttl, 1, Limits.MAX_TTL_MS);
    long done = 0;
    while (done < count) {
      BatchReply batch = store.respawnOldest(queue, Math.min(BATCH, count - done), ttl);
      done += batch.done();
      if (batch.done() == 0 || batch.left() == 0) {
        break;
      }
    }
    return done;
  }

  long purge(QueueName queue) {
    long purged = 0;
    while (true) {
      BatchReply batch = store.purgeDead(queue, BATCH);
      purged += batch.done();
      if (batch.done() == 0 || batch.left() == 0) {
        return purged;
      }
    }
  }
}
