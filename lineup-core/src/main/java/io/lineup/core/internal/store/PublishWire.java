package io.lineup.core.internal.store;

import io.lineup.api.TraceContext;
import io.lineup.core.model.NewJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The publish script's arguments (see {@code publish.lua}; {@link ScriptReplies#publish} reads its
 * reply); shared by the engine and its micro-benchmarks so that they measure the same code.
 */
public final class PublishWire {
  /** ARGV values per job after the option sets and the form, in the full form: id, payload, set. */
  public static final int VALUES_PER_JOB = 3;

  /**
   * ARGV values per job in the plain form, which a call takes when all its jobs take generated ids
   * and share one option set without a unique key: the payload.
   */
  public static final int VALUES_PER_PLAIN_JOB = 1;

  private static final String PLAIN = "plain";
  private static final String FULL = "full";

  /** ARGV values per option set. */
  public static final int VALUES_PER_OPTION_SET = 9;

  private PublishWire() {}

  /** What jobs of one call share, so the script parses it once (see {@code publish.lua}). */
  private record OptionSet(
      int priority,
      long delayMs,
      long runAtMs,
      int maxAttempts,
      long timeToRunMs,
      long ttlMs,
      long uniqueWindowMs,
      String key,
      String trace) {
    static OptionSet of(NewJob job) {
      TraceContext context = job.traceContext();
      return new OptionSet(
          job.priority(),
          job.delay() == null ? -1 : job.delay().toMillis(),
          job.runAt() == null ? -1 : job.runAt().toEpochMilli(),
          job.maxAttempts() == null ? 0 : job.maxAttempts(),
          job.timeToRun() == null ? 0 : job.timeToRun().toMillis(),
          job.ttl() == null ? 0 : job.ttl().toMillis(),
          job.uniqueKey() == null ? 0 : job.uniqueWindow().toMillis(),
          job.key() == null ? "" : job.key(),
          context == null ? "" : context.stored());
    }
  }

  /** The script's fence argument of a publish bound to no fence. */
  public static final String NO_FENCE = "";

  /**
   * ARGV for checked jobs bound to no fence; see {@link #arguments(String, String, List)}.
   *
   * @param now the script's clock argument ({@code ""} for Redis time)
   */
  public static byte[][] arguments(String now, List<NewJob> jobs) {
    return arguments(now, NO_FENCE, jobs);
  }

  /**
   * ARGV for checked jobs. The caller appends the unique-key locks of the jobs that have one to
   * KEYS, in job order, after the queue keys.
   *
   * @param now the script's clock argument ({@code ""} for Redis time)
   * @param fence the fence the call expects the queue to hold, as decimal text, or {@link
   *     #NO_FENCE}
   */
  public static byte[][] arguments(String now, String fence, List<NewJob> jobs) {
    Map<OptionSet, Integer> numbers = new HashMap<>();
    List<OptionSet> sets = new ArrayList<>();
    int[] setOfJob = new int[jobs.size()];
    boolean allGenerated = true;
    for (int i = 0; i < jobs.size(); i++) {
      allGenerated &= jobs.get(i).id() == null;
      OptionSet set = OptionSet.of(jobs.get(i));
      Integer number = numbers.get(set);
      if (number == null) {
        sets.add(set);
        number = sets.size();
        numbers.put(set, number);
      }
      setOfJob[i] = number;
    }
    boolean plain = allGenerated && sets.size() == 1 && sets.get(0).uniqueWindowMs() == 0;
    Args args =
        new Args(
            5
                + sets.size() * VALUES_PER_OPTION_SET
                + jobs.size() * (plain ? VALUES_PER_PLAIN_JOB : VALUES_PER_JOB));
    args.add(now).add(fence).add(jobs.size()).add(sets.size());
    for (OptionSet set : sets) {
      args.add(set.priority())
          .add(set.delayMs())
          .add(set.runAtMs())
          .add(set.maxAttempts())
          .add(set.timeToRunMs())
          .add(set.ttlMs())
          .add(set.uniqueWindowMs())
          .add(set.key())
          .add(set.trace());
    }
    args.add(plain ? PLAIN : FULL);
    for (int i = 0; i < jobs.size(); i++) {
      NewJob job = jobs.get(i);
      if (plain) {
        args.add(job.payload());
      } else {
        args.add(job.id() != null ? job.id() : "").add(job.payload()).add(setOfJob[i]);
      }
    }
    return args.toArray();
  }
}
