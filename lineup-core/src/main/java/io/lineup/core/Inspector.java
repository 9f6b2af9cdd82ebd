package io.lineup.core;

import io.lineup.core.internal.Args;
import io.lineup.core.internal.KeySpace;
import io.lineup.core.internal.Replies;
import io.lineup.core.internal.ScriptLibrary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads jobs and queues; every read is one script call, so what it sees is consistent. */
final class Inspector {
  private final Engine engine;

  Inspector(Engine engine) {
    this.engine = engine;
  }

  Optional<JobInfo> get(QueueName queue, String id) {
    Checks.id(id);
    Object reply =
        engine.run(ScriptLibrary.GET, queue, new Args(2).add(engine.now()).add(id).toArray());
    List<Object> r = Replies.asList(reply);
    if (r.isEmpty()) {
      return Optional.empty();
    }
    long eta = Replies.asLong(r.get(15));
    byte[] result = Replies.asBytes(r.get(12));
    return Optional.of(
        new JobInfo(
            queue,
            id,
            JobState.valueOf(Replies.asString(r.get(0))),
            Replies.asBytes(r.get(1)),
            (int) Replies.asLong(r.get(2)),
            (int) Replies.asLong(r.get(3)),
            (int) Replies.asLong(r.get(4)),
            Duration.ofMillis(Replies.asLong(r.get(5))),
            Replies.asInstant(r.get(6)),
            Replies.asInstant(r.get(7)),
            Replies.asInstant(r.get(8)),
            Replies.asInstant(r.get(9)),
            Replies.asInstant(r.get(10)),
            Replies.asInstant(r.get(14)),
            Replies.asOptionalString(r.get(11)),
            result.length == 0 ? null : result,
            Replies.asLong(r.get(13)),
            eta < 0 ? null : Duration.ofMillis(eta)));
  }

  /** One ZRANK: a single command is atomic by itself, and far cheaper than the whole get script. */
  long position(QueueName queue, String id) {
    Checks.id(id);
    Long rank =
        engine
            .gateway()
            .await(
                engine
                    .gateway()
                    .commands()
                    .zrank(
                        KeySpace.queueKeys(queue)[KeySpace.READY_INDEX],
                        id.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    return rank == null ? -1 : rank;
  }

  /** One HEXISTS on the job's records hash ({@link KeySpace#recordKey}): whether it is kept. */
  boolean exists(QueueName queue, String id) {
    Checks.id(id);
    Boolean found =
        engine
            .gateway()
            .await(
                engine
                    .gateway()
                    .commands()
                    .hexists(
                        KeySpace.recordKey(queue, id),
                        id.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    return Boolean.TRUE.equals(found);
  }

  QueueStats stats(QueueName queue) {
    List<Object> r =
        Replies.asList(
            engine.run(ScriptLibrary.STATS, queue, new Args(1).add(engine.now()).toArray()));
    List<Object> flat = Replies.asList(r.get(7));
    Map<String, String> settings = new LinkedHashMap<>();
    Map<String, Long> counters = new LinkedHashMap<>();
    for (int i = 0; i < flat.size(); i += 2) {
      String name = Replies.asString(flat.get(i));
      String value = Replies.asString(flat.get(i + 1));
      if (name.startsWith("n_")) {
        counters.put(name.substring(2), Long.parseLong(value));
      } else {
        settings.put(name, value);
      }
    }
    return new QueueStats(
        queue,
        Replies.asLong(r.get(0)),
        Replies.asLong(r.get(1)),
        Replies.asLong(r.get(2)),
        Replies.asLong(r.get(3)),
        Replies.asLong(r.get(4)),
        Replies.asDouble(r.get(5)),
        SettingsCodec.decode(settings),
        counters,
        Instant.ofEpochMilli(Replies.asLong(r.get(6))));
  }

  List<PeekedJob> peek(QueueName queue, int offset, int count) {
    Checks.page(offset, count);
    List<Object> r =
        Replies.asList(
            engine.run(ScriptLibrary.PEEK, queue, new Args(2).add(offset).add(count).toArray()));
    List<PeekedJob> jobs = new ArrayList<>(r.size());
    for (Object item : r) {
      List<Object> job = Replies.asList(item);
      jobs.add(
          new PeekedJob(
              Replies.asString(job.get(0)),
              Replies.asBytes(job.get(1)),
              (int) Replies.asLong(job.get(2)),
              (int) Replies.asLong(job.get(3)),
              Instant.ofEpochMilli(Replies.asLong(job.get(4)))));
    }
    return jobs;
  }

  List<QueueName> queues() {
    return engine.gateway().queues().stream().map(QueueName::parse).toList();
  }
}
