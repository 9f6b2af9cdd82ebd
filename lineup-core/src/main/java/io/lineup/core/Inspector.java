package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies.StatsReply;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.EtaReading;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueEvent;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.SettingsCodec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Reads jobs and queues; every read is one script call or one command, so it is consistent. */
final class Inspector {
  private final RedisStore store;

  Inspector(Engine engine) {
    this.store = engine.store();
  }

  Optional<JobInfo> get(QueueName queue, String id) {
    Checks.id(id);
    return store.get(queue, id);
  }

  /** One ZRANK: a single command is atomic by itself, and far cheaper than the whole get script. */
  long position(QueueName queue, String id) {
    Checks.id(id);
    return store.rank(queue, id);
  }

  /** ZRANKs sent together: one round trip for all of them. */
  long[] positions(QueueName queue, List<String> ids) {
    ids.forEach(Checks::id);
    return store.ranks(queue, ids);
  }

  String lastEventId(QueueName queue) {
    return store.lastEventId(queue);
  }

  boolean exists(QueueName queue, String id) {
    Checks.id(id);
    return store.recordExists(queue, id);
  }

  EtaEstimator etaEstimator(QueueName queue) {
    StatsReply r = store.stats(queue);
    return estimatorOf(r, SettingsCodec.decode(r.settings()));
  }

  EtaReading etaReading(QueueName queue) {
    StatsReply r = store.stats(queue);
    return new EtaReading(r.readAt(), r.ready(), estimatorOf(r));
  }

  /** The estimator of a stats reading. */
  static EtaEstimator estimatorOf(StatsReply r) {
    return estimatorOf(r, SettingsCodec.decode(r.settings()));
  }

  private static EtaEstimator estimatorOf(StatsReply r, QueueSettings settings) {
    return EtaEstimator.of(
        r.donePerSecond(), EtaEstimator.Conditions.of(settings, r.leased(), r.rateWindow()));
  }

  QueueStats stats(QueueName queue) {
    StatsReply r = store.stats(queue);
    QueueSettings settings = SettingsCodec.decode(r.settings());
    EtaEstimator estimate = estimatorOf(r, settings);
    Eta drain;
    if (r.ready() > 0) {
      drain = estimate.eta(r.ready() - 1).orElse(null);
    } else {
      drain =
          estimate.basis() == EtaEstimator.Basis.NONE
              ? null
              : new Eta(Duration.ZERO, Duration.ZERO, Duration.ZERO);
    }
    return new QueueStats(
        queue,
        r.ready(),
        r.delayed(),
        r.leased(),
        r.finished(),
        r.dead(),
        estimate.ratePerSecond(),
        drain,
        settings,
        r.counters(),
        r.readAt());
  }

  /** Most entries sharing one lease deadline skipped to reach a page (ties are rare: ms scores). */
  static final int MAX_TIES_SKIPPED = 10_000;

  List<io.lineup.core.model.LeaseEntry> leased(
      QueueName queue, long fromDeadlineMs, String afterId, int count) {
    if (count < 1 || count > 1000) {
      throw new io.lineup.core.model.InvalidArgumentException("count", "must be 1 to 1000");
    }
    List<io.lineup.core.model.LeaseEntry> page = new java.util.ArrayList<>(count);
    int offset = 0;
    while (page.size() < count && offset <= MAX_TIES_SKIPPED) {
      var entries = store.leasedFrom(queue, fromDeadlineMs, offset, count);
      for (var entry : entries) {
        boolean tie = entry.getValue() == fromDeadlineMs;
        if (afterId != null && tie && entry.getKey().compareTo(afterId) <= 0) {
          continue; // on the previous page
        }
        if (page.size() < count) {
          page.add(
              new io.lineup.core.model.LeaseEntry(
                  entry.getKey(), java.time.Instant.ofEpochMilli(entry.getValue())));
        }
      }
      if (entries.size() < count || afterId == null) {
        break;
      }
      offset += entries.size();
    }
    return page;
  }

  List<io.lineup.core.model.LeaseEntry> finished(
      QueueName queue, long toMs, String beforeId, int count) {
    if (count < 1 || count > 1000) {
      throw new io.lineup.core.model.InvalidArgumentException("count", "must be 1 to 1000");
    }
    List<io.lineup.core.model.LeaseEntry> page = new java.util.ArrayList<>(count);
    int offset = 0;
    while (page.size() < count && offset <= MAX_TIES_SKIPPED) {
      var entries = store.finishedUntil(queue, toMs, offset, count);
      for (var entry : entries) {
        boolean tie = entry.getValue() == toMs;
        if (beforeId != null && tie && entry.getKey().compareTo(beforeId) >= 0) {
          continue; // on the previous page
        }
        if (page.size() < count) {
          page.add(
              new io.lineup.core.model.LeaseEntry(
                  entry.getKey(), java.time.Instant.ofEpochMilli(entry.getValue())));
        }
      }
      if (entries.size() < count || beforeId == null) {
        break;
      }
      offset += entries.size();
    }
    return page;
  }

  List<PeekedJob> peek(QueueName queue, int offset, int count) {
    Checks.page(offset, count);
    return store.peek(queue, offset, count);
  }

  List<QueueName> queues() {
    return store.queues();
  }

  boolean isKnown(QueueName queue) {
    return store.isRegistered(queue);
  }

  List<QueueEvent> events(QueueName queue, String afterStreamId, int count) {
    Checks.page(0, count);
    if (afterStreamId != null && !afterStreamId.matches("\\d{1,20}-\\d{1,20}")) {
      throw new InvalidArgumentException("after", "must be a stream id such as 1700000000000-0");
    }
    return store.events(queue, afterStreamId, count);
  }
}
