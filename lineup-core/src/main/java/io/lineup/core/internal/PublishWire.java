package io.lineup.core.internal;

import io.lineup.core.JobState;
import io.lineup.core.NewJob;
import io.lineup.core.PublishResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The publish script's arguments and reply (see {@code publish.lua}); shared by the engine and its
 * micro-benchmarks so that they measure the same code.
 */
public final class PublishWire {
  /** ARGV values per job. */
  public static final int VALUES_PER_JOB = 10;

  private PublishWire() {}

  /**
   * ARGV for checked jobs. A job with a unique key gets the next KEYS index after {@code
   * queueKeyCount} (the caller appends the unique-key locks to KEYS in job order).
   *
   * @param now the script's clock argument ({@code ""} for Redis time)
   */
  public static byte[][] arguments(String now, List<NewJob> jobs, int queueKeyCount) {
    Args args = new Args(2 + jobs.size() * VALUES_PER_JOB);
    args.add(now).add(jobs.size());
    int uniqueKeys = 0;
    for (NewJob job : jobs) {
      int uniqueIndex = 0;
      if (job.uniqueKey() != null) {
        uniqueKeys++;
        uniqueIndex = queueKeyCount + uniqueKeys;
      }
      args.add(job.id() != null ? job.id() : "")
          .add(job.payload())
          .add(job.priority())
          .add(job.delay() == null ? -1 : job.delay().toMillis())
          .add(job.runAt() == null ? -1 : job.runAt().toEpochMilli())
          .add(job.maxAttempts() == null ? 0 : job.maxAttempts())
          .add(job.timeToRun() == null ? 0 : job.timeToRun().toMillis())
          .add(job.ttl() == null ? 0 : job.ttl().toMillis())
          .add(uniqueIndex)
          .add(job.uniqueWindow() == null ? 0 : job.uniqueWindow().toMillis());
    }
    return args.toArray();
  }

  /** The results, in job order, from the script's flat reply (5 values per job). */
  public static List<PublishResult> results(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    List<PublishResult> results = new ArrayList<>(reply.size() / 5);
    for (int i = 0; i < reply.size(); i += 5) {
      String state = Replies.asString(reply.get(i + 2));
      long due = Replies.asLong(reply.get(i + 3));
      results.add(
          new PublishResult(
              Replies.asString(reply.get(i)),
              ScriptCode.of(Replies.asLong(reply.get(i + 1))) == ScriptCode.OK,
              "UNKNOWN".equals(state) ? null : JobState.valueOf(state),
              due == 0 ? null : Instant.ofEpochMilli(due),
              Replies.asLong(reply.get(i + 4))));
    }
    return results;
  }
}
