package io.lineup.core.internal.store;

import io.lineup.api.TraceContext;
import io.lineup.core.model.DeadJob;
import io.lineup.core.model.DeadPage;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.JobState;
import io.lineup.core.model.KeyBacklogFullException;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.ListedJob;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Decoders of the scripts' replies, the only code that reads a reply by position.
 *
 * <p>Each reply shape is an enum whose constants name the values in the order the script returns
 * them, spelled as the script's {@code Returns} header spells them (lower case): {@code
 * ReplyShapesTest} holds every enum against its header, so a script and its decoder cannot drift
 * apart. A shape whose values repeat (one group per job) is marked so in the header with {@code
 * ...}.
 */
public final class ScriptReplies {
  private ScriptReplies() {}

  /** {@code publish.lua}: one flat group of these per job. */
  enum Publish {
    ID,
    CODE,
    STATE,
    DUE_MS,
    POSITION
  }

  /**
   * {@code lease.lua}: these, then the {@link LeasedJobField} values of each leased job, one job
   * after another in the same list.
   */
  enum Lease {
    ACK_CODES,
    STATUS,
    WAIT_US,
    NOW_MS,
    MAX_ATTEMPTS
  }

  /** {@code schedule_read.lua}, then one {@link ScheduleField} group per schedule. */
  enum ScheduleRead {
    NOW,
    NOW_US,
    EARLIEST
  }

  /** {@code schedule_read.lua}: the values of one schedule, in this order. */
  enum ScheduleField {
    NAME,
    SPEC,
    STATE,
    DUE
  }

  /** {@code schedule_write.lua}. */
  enum ScheduleWrite {
    CODE,
    STATE
  }

  /** {@code schedule_fire.lua}, then one {@link ScheduleFireEntry} group per entry. */
  enum ScheduleFire {
    NOW,
    NOW_US,
    EARLIEST
  }

  /** {@code schedule_fire.lua}: the values of one entry, in this order. */
  enum ScheduleFireEntry {
    CODE,
    PUBLISHED
  }

  /** {@code schedule_delete.lua}. */
  enum ScheduleDelete {
    EXISTED
  }

  /** {@code lease.lua}: the values of one leased job, in this order. */
  enum LeasedJobField {
    ID,
    BODY,
    ATTEMPT,
    LEASE_DEADLINE_MS
  }

  /** {@code nack.lua}. */
  enum Nack {
    CODE,
    STATE,
    DUE_MS
  }

  /** {@code extend.lua}. */
  enum Extend {
    CODE,
    LEASE_DEADLINE_MS
  }

  /** {@code release.lua}. */
  enum Release {
    CODE
  }

  /** {@code shorten.lua}. */
  enum Shorten {
    CODE
  }

  /** {@code replace_record.lua}. */
  enum ReplaceRecord {
    CODE
  }

  /** {@code rate_slot.lua}. */
  enum RateSlot {
    WAIT_MS,
    NOW_MS
  }

  /** {@code adaptive_configure.lua}. */
  enum AdaptiveConfigure {
    LIMIT
  }

  /** {@code adaptive_report.lua}. */
  enum AdaptiveReport {
    MOVE,
    LIMIT,
    REASON
  }

  /** {@code adaptive_read.lua}, when the queue has an adaptive limit. */
  enum AdaptiveRead {
    NOW_MS,
    MIN,
    MAX,
    TARGET_MS,
    WINDOW_MS,
    DECREASE,
    HOLD_CAP_MS,
    LIMIT,
    HOLD_UNTIL_MS,
    REASON,
    MOVED_AT_MS
  }

  /** {@code cancel.lua}. */
  enum Cancel {
    CODE,
    STATE
  }

  /** {@code get.lua} (an empty reply when the job is unknown). */
  enum Get {
    STATE,
    PAYLOAD,
    PRIORITY,
    ATTEMPTS,
    MAX_ATTEMPTS,
    TTR_MS,
    CREATED_MS,
    DUE_MS,
    EXPIRES_MS,
    STARTED_MS,
    FINISHED_MS,
    ERROR,
    RESULT,
    POSITION,
    LEASE_DEADLINE_MS,
    NOW_MS,
    PAUSED,
    RATE_LIMIT,
    CONCURRENCY_LIMIT,
    EXPECTED_SERVICE_MS,
    LEASED,
    DONE_PER_S,
    RATE_WINDOW,
    RATE_PERIOD_MS,
    RATE_BURST,
    KEY,
    KEY_AHEAD,
    KEY_RATE,
    KEY_RATE_PERIOD_MS,
    TRACE
  }

  /** {@code stats.lua}. */
  enum Stats {
    READY,
    DELAYED,
    LEASED,
    FINISHED,
    DEAD,
    NOW_MS,
    SETTINGS,
    DONE_PER_S,
    RATE_WINDOW
  }

  /** {@code peek.lua}: one table per job. */
  enum Peek {
    ID,
    PAYLOAD,
    PRIORITY,
    ATTEMPTS,
    CREATED_MS
  }

  /** {@code dead_list.lua}: the total, then one {@link DeadJobField} table per job. */
  enum DeadList {
    TOTAL
  }

  /** {@code dead_list.lua}: one dead job. */
  enum DeadJobField {
    ID,
    PAYLOAD,
    PRIORITY,
    ATTEMPTS,
    ERROR,
    DIED_MS
  }

  /** {@code respawn.lua} and {@code purge.lua}: how many were handled, how many dead are left. */
  enum Batch {
    DONE,
    LEFT
  }

  /** {@code jobs_list.lua}: these, then one {@link ListedJobField} table per job. */
  enum JobsList {
    SCANNED,
    MORE,
    LAST_SCORE,
    LAST_ID
  }

  /** {@code jobs_list.lua}: one listed job. */
  enum ListedJobField {
    ID,
    SCORE,
    STATE,
    PAYLOAD,
    PRIORITY,
    ATTEMPTS,
    CREATED_MS,
    ERROR,
    INDEX
  }

  /** {@code jobs_act.lua}: one outcome per job. */
  enum ActOutcomeField {
    DONE,
    STATE
  }

  /** {@code reclaim.lua}, {@code expire.lua}, {@code retention.lua}, {@code outbox_ack.lua}. */
  enum Sweep {
    HANDLED
  }

  /** {@code promote.lua}: a sweep that also says when the next delayed job is due. */
  enum Promote {
    HANDLED,
    NEXT_DUE_IN_MS
  }

  /** {@code configure.lua}: its reply carries nothing and is not read. */
  enum Configure {
    OK
  }

  /**
   * {@code lease.lua}'s answer.
   *
   * @param waitMicros microseconds until a lease can succeed (the next due job or the end of a
   *     limit window), from when the script read the clock; 0 when jobs are left, -1 unknown
   */
  public record LeaseReply(
      List<ScriptCode> ackCodes, Leases.Refusal refusal, long waitMicros, List<LeasedJob> jobs) {}

  /** {@code nack.lua}'s answer: the state after the nack and when it is due again. */
  public record NackReply(ScriptCode code, JobState state, Instant dueAt) {}

  /** {@code extend.lua}'s answer: the new lease deadline, null unless the code is OK. */
  public record ExtendReply(ScriptCode code, Instant leaseDeadline) {}

  /**
   * {@code jobs_list.lua}'s answer.
   *
   * @param scanned entries examined
   * @param more whether entries are left after the last one examined
   * @param lastScore the last examined entry's score as Redis wrote it, null when none was
   * @param lastId the last examined entry's id, null when none was
   * @param jobs the jobs that matched
   */
  public record JobsListReply(
      long scanned, boolean more, String lastScore, String lastId, List<ListedJob> jobs) {}

  /**
   * One job's outcome in {@code jobs_act.lua}: applied or not, and its state before (null: none).
   */
  public record ActOutcome(boolean done, JobState before) {}

  /** {@code cancel.lua}'s answer: the state the job had, null when unknown. */
  public record CancelReply(ScriptCode code, JobState before) {}

  /**
   * {@code stats.lua}'s answer.
   *
   * @param settings the queue's stored settings by meta-hash field name
   * @param counters the queue's counters by name
   * @param donePerSecond completions per second of the last minute, oldest first, for {@link
   *     EtaEstimator#of}
   * @param rateWindow the rate limit's window at the reading
   */
  public record StatsReply(
      long ready,
      long delayed,
      long leased,
      long finished,
      long dead,
      Instant readAt,
      Map<String, String> settings,
      Map<String, Long> counters,
      List<Long> donePerSecond,
      EtaEstimator.RateWindow rateWindow) {}

  /** A batch script's answer: handled in this call, and how many are left to handle. */
  public record BatchReply(long done, long left) {}

  /**
   * {@code publish.lua}'s answer to a call in the plain form ({@link PublishWire}): these, for all
   * its jobs.
   */
  enum PlainPublish {
    MARK,
    FIRST_ARRIVAL,
    STATE,
    DUE_MS,
    FIRST_POSITION
  }

  /**
   * {@code publish.lua}'s answer to a call bound to a fence the queue does not hold: these, and
   * nothing was written.
   */
  enum FencedPublish {
    MARK,
    FENCE
  }

  /**
   * {@code publish.lua}'s answer to a call that would bring a fairness key past its most waiting
   * jobs: these, and nothing was written.
   */
  enum RefusedPublish {
    MARK,
    KEY,
    MAX_WAITING,
    WAITING
  }

  /** {@code fair_key_write.lua}. */
  enum FairKeyWrite {
    PARKED
  }

  /** {@code fair_unpark.lua}. */
  enum FairUnpark {
    MOVED,
    LEFT
  }

  /** {@code fair_key_read.lua}. */
  enum FairKeyRead {
    OWN,
    EFFECTIVE,
    WAITING,
    LEASED,
    PARKED
  }

  /** {@code fair_top.lua}: these, then an entry ({@link FairTopEntry}) per key. */
  enum FairTop {
    KEYS_WAITING,
    KEYS_LEASED
  }

  /** One key of {@code fair_top.lua}'s answer. */
  enum FairTopEntry {
    KEY,
    COUNT
  }

  /** {@code fair_drop.lua}. */
  enum FairDrop {
    DELETED,
    LINE_CURSOR,
    DELAYED_CURSOR,
    LEFT
  }

  /**
   * {@code fair_key_read.lua}'s answer: a key's own and effective settings (six values each:
   * weight, concurrency, rate, rate period in ms, max waiting, paused; -1 in {@code own} where the
   * queue's applies) and its counts.
   */
  public record FairKeyReply(
      List<Object> own, List<Object> effective, long waiting, long leased, long parked) {}

  static FairKeyReply fairKeyRead(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    return new FairKeyReply(
        Replies.asList(r.get(FairKeyRead.OWN.ordinal())),
        Replies.asList(r.get(FairKeyRead.EFFECTIVE.ordinal())),
        number(r, FairKeyRead.WAITING),
        number(r, FairKeyRead.LEASED),
        number(r, FairKeyRead.PARKED));
  }

  /**
   * {@code fair_top.lua}'s answer: how many keys have jobs waiting and leased, and the keys asked
   * for with their counts, most first.
   */
  public record FairTopReply(long keysWaiting, long keysLeased, Map<String, Long> top) {}

  static FairTopReply fairTop(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    Map<String, Long> top = new LinkedHashMap<>();
    int width = FairTopEntry.values().length;
    for (int at = FairTop.values().length; at + width <= r.size(); at += width) {
      top.put(
          Replies.asString(r.get(at + FairTopEntry.KEY.ordinal())),
          Replies.asLong(r.get(at + FairTopEntry.COUNT.ordinal())));
    }
    return new FairTopReply(number(r, FairTop.KEYS_WAITING), number(r, FairTop.KEYS_LEASED), top);
  }

  /** {@code fair_drop.lua}'s answer: jobs deleted, the cursors to pass next (-1: walked). */
  public record FairDropReply(long deleted, long lineCursor, long delayedCursor) {}

  static FairDropReply fairDrop(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    return new FairDropReply(
        number(r, FairDrop.DELETED),
        number(r, FairDrop.LINE_CURSOR),
        number(r, FairDrop.DELAYED_CURSOR));
  }

  /** The mark that starts the answer of a publish refused by a key's limit, which no id is. */
  private static final String KEY_FULL_MARK = "#";

  /** The mark that starts the answer of a publish refused by its fence, which no id is. */
  private static final String FENCE_MARK = "!";

  /**
   * The mark that starts an answer in the plain form: the generated ids' mark alone, which no id
   * is.
   */
  private static final String PLAIN_MARK = KeySpace.GENERATED_ID_MARK;

  /**
   * The results of a publish, in job order, from either answer of {@code publish.lua}: five values
   * per job ({@link Publish}), or the plain form's five for the whole call ({@link PlainPublish}),
   * told apart by its first value, {@code "~"}, which no id is (a caller's id has no {@code '~'}, a
   * generated one has digits after it).
   *
   * @param jobs how many jobs the call published
   * @param queue the queue published to (named by the exception)
   * @param expectedFence the fence the call was bound to (named by the exception)
   * @throws FenceMismatchException when the call's fence was refused ({@link FencedPublish})
   * @throws KeyBacklogFullException when a fairness key's limit refused the call ({@link
   *     RefusedPublish})
   */
  public static List<PublishResult> publish(
      Object replyObject, int jobs, QueueName queue, long expectedFence) {
    List<Object> reply = Replies.asList(replyObject);
    if (reply.size() == FencedPublish.values().length
        && FENCE_MARK.equals(Replies.asString(reply.get(FencedPublish.MARK.ordinal())))) {
      String fence = Replies.asString(reply.get(FencedPublish.FENCE.ordinal()));
      throw new FenceMismatchException(
          queue,
          expectedFence,
          fence == null || fence.isEmpty()
              ? OptionalLong.empty()
              : OptionalLong.of(Long.parseLong(fence)));
    }
    if (reply.size() == RefusedPublish.values().length
        && KEY_FULL_MARK.equals(Replies.asString(reply.get(RefusedPublish.MARK.ordinal())))) {
      throw new KeyBacklogFullException(
          queue,
          Replies.asString(reply.get(RefusedPublish.KEY.ordinal())),
          Replies.asLong(reply.get(RefusedPublish.MAX_WAITING.ordinal())),
          Replies.asLong(reply.get(RefusedPublish.WAITING.ordinal())));
    }
    if (reply.size() >= PlainPublish.values().length
        && reply.size() <= PlainPublish.values().length + 2
        && PLAIN_MARK.equals(Replies.asString(reply.get(PlainPublish.MARK.ordinal())))) {
      return plainPublish(reply, jobs);
    }
    int width = Publish.values().length;
    List<PublishResult> results = new ArrayList<>(reply.size() / width);
    for (int at = 0; at + width <= reply.size(); at += width) {
      String state = Replies.asString(reply.get(at + Publish.STATE.ordinal()));
      long due = Replies.asLong(reply.get(at + Publish.DUE_MS.ordinal()));
      results.add(
          new PublishResult(
              Replies.asString(reply.get(at + Publish.ID.ordinal())),
              ScriptCode.of(Replies.asLong(reply.get(at + Publish.CODE.ordinal())))
                  == ScriptCode.OK,
              "UNKNOWN".equals(state) ? null : JobState.valueOf(state),
              due == 0 ? null : Instant.ofEpochMilli(due),
              Replies.asLong(reply.get(at + Publish.POSITION.ordinal()))));
    }
    return results;
  }

  private static List<PublishResult> plainPublish(List<Object> reply, int jobs) {
    long first = Replies.asLong(reply.get(PlainPublish.FIRST_ARRIVAL.ordinal()));
    JobState state = JobState.valueOf(Replies.asString(reply.get(PlainPublish.STATE.ordinal())));
    Instant due = Instant.ofEpochMilli(Replies.asLong(reply.get(PlainPublish.DUE_MS.ordinal())));
    long position = Replies.asLong(reply.get(PlainPublish.FIRST_POSITION.ordinal()));
    // A fair queue's jobs are not at consecutive places: it answers each one's (publish.lua).
    List<Object> positions =
        reply.size() > PlainPublish.values().length
            ? Replies.asList(reply.get(PlainPublish.values().length))
            : List.of();
    // ... and its ready jobs take ids by turn rather than by arrival: it answers each one's.
    List<Object> ids =
        reply.size() > PlainPublish.values().length + 1
            ? Replies.asList(reply.get(PlainPublish.values().length + 1))
            : List.of();
    List<PublishResult> results = new ArrayList<>(jobs);
    for (int i = 0; i < jobs; i++) {
      long at;
      if (!positions.isEmpty()) {
        at = Replies.asLong(positions.get(i));
      } else {
        at = position < 0 ? -1 : position + i;
      }
      String id = ids.isEmpty() ? GeneratedIds.of(first + i) : Replies.asString(ids.get(i));
      results.add(new PublishResult(id, true, state, due, at));
    }
    return results;
  }

  /**
   * The lease script's answer: ack codes, refusal, wait hint and the leased jobs.
   *
   * @param nonce the nonce the call gave the script, from which each job's lease token is made
   */
  public static LeaseReply lease(QueueName queue, Object replyObject, String nonce) {
    List<Object> reply = Replies.asList(replyObject);
    Leases.Refusal refusal =
        switch ((int) number(reply, Lease.STATUS)) {
          case 1 -> Leases.Refusal.PAUSED;
          case 2 -> Leases.Refusal.RATE_LIMITED;
          case 3 -> Leases.Refusal.CONCURRENCY_LIMITED;
          default -> null;
        };
    return new LeaseReply(
        codes(reply.get(Lease.ACK_CODES.ordinal())),
        refusal,
        number(reply, Lease.WAIT_US),
        leasedJobs(queue, reply, nonce));
  }

  /**
   * The leased jobs of a lease reply, in line order. A job's lease token is the call's nonce, a dot
   * and its attempt, as the script makes it; its payload, creation, priority, max attempts and due
   * time are read from its stored body (a whole record, {@code lib/job.lua}).
   */
  public static List<LeasedJob> leasedJobs(QueueName queue, List<Object> reply, String nonce) {
    int first = Lease.values().length;
    int fields = LeasedJobField.values().length;
    if (reply.size() < first || (reply.size() - first) % fields != 0) {
      throw new IllegalStateException(
          "a lease reply of "
              + reply.size()
              + " values is not "
              + first
              + " and "
              + fields
              + " per job");
    }
    Instant now = Instant.ofEpochMilli(number(reply, Lease.NOW_MS));
    int queueMaxAttempts = (int) number(reply, Lease.MAX_ATTEMPTS);
    String tokenStart = nonce + ".";
    List<LeasedJob> jobs = new ArrayList<>((reply.size() - first) / fields);
    for (int at = first; at < reply.size(); at += fields) {
      List<Object> job = reply.subList(at, at + fields);
      int attempt = (int) number(job, LeasedJobField.ATTEMPT);
      StoredBody body = StoredBody.of(bytes(job, LeasedJobField.BODY));
      jobs.add(
          new LeasedJob(
              queue,
              text(job, LeasedJobField.ID),
              body.payload(),
              body.priority(),
              attempt,
              body.maxAttempts() > 0 ? body.maxAttempts() : queueMaxAttempts,
              tokenStart + attempt,
              Instant.ofEpochMilli(number(job, LeasedJobField.LEASE_DEADLINE_MS)),
              Instant.ofEpochMilli(body.createdMs()),
              Instant.ofEpochMilli(body.dueMs() > 0 ? body.dueMs() : body.createdMs()),
              now,
              body.trace()));
    }
    return jobs;
  }

  /** A list of result codes (the ack script's reply, the lease reply's first value). */
  public static List<ScriptCode> codes(Object reply) {
    List<Object> values = Replies.asList(reply);
    List<ScriptCode> codes = new ArrayList<>(values.size());
    for (Object code : values) {
      codes.add(ScriptCode.of(Replies.asLong(code)));
    }
    return codes;
  }

  static NackReply nack(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    ScriptCode code = code(reply, Nack.CODE);
    if (code != ScriptCode.OK) {
      return new NackReply(code, null, null);
    }
    return new NackReply(
        code,
        JobState.valueOf(text(reply, Nack.STATE)),
        Instant.ofEpochMilli(number(reply, Nack.DUE_MS)));
  }

  static ExtendReply extend(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    ScriptCode code = code(reply, Extend.CODE);
    return new ExtendReply(
        code,
        code == ScriptCode.OK
            ? Instant.ofEpochMilli(number(reply, Extend.LEASE_DEADLINE_MS))
            : null);
  }

  /**
   * {@code rate_slot.lua}'s answer.
   *
   * @param retryAfter zero when the slot is taken, else how long to wait before asking again
   * @param now the script's clock: when taken, the start as the rate log records it
   */
  public record RateSlotReply(Duration retryAfter, Instant now) {}

  static RateSlotReply rateSlot(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    return new RateSlotReply(
        Duration.ofMillis(number(reply, RateSlot.WAIT_MS)),
        Instant.ofEpochMilli(number(reply, RateSlot.NOW_MS)));
  }

  /**
   * {@code adaptive_report.lua}'s answer.
   *
   * @param move 1 increased, -1 decreased, 0 not moved, 2 held, -2 no adaptive limit
   * @param limit the limit in force after the report (0 without an adaptive limit)
   * @param reason the limit's last reason, or empty
   */
  public record AdaptiveReportReply(int move, int limit, String reason) {}

  static AdaptiveReportReply adaptiveReport(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    String reason = text(reply, AdaptiveReport.REASON);
    return new AdaptiveReportReply(
        (int) number(reply, AdaptiveReport.MOVE),
        (int) number(reply, AdaptiveReport.LIMIT),
        reason == null ? "" : reason);
  }

  static long adaptiveConfigure(Object replyObject) {
    return number(Replies.asList(replyObject), AdaptiveConfigure.LIMIT);
  }

  /**
   * {@code adaptive_read.lua}'s answer for a queue with an adaptive limit. Times are epoch ms, 0 =
   * none; durations ms.
   */
  public record AdaptiveReadReply(
      long nowMs,
      int min,
      int max,
      long targetMs,
      long windowMs,
      double decrease,
      long holdCapMs,
      int limit,
      long holdUntilMs,
      String reason,
      long movedAtMs) {}

  static Optional<AdaptiveReadReply> adaptiveRead(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    if (reply.isEmpty()) {
      return Optional.empty();
    }
    String reason = text(reply, AdaptiveRead.REASON);
    return Optional.of(
        new AdaptiveReadReply(
            number(reply, AdaptiveRead.NOW_MS),
            (int) number(reply, AdaptiveRead.MIN),
            (int) number(reply, AdaptiveRead.MAX),
            number(reply, AdaptiveRead.TARGET_MS),
            number(reply, AdaptiveRead.WINDOW_MS),
            Double.parseDouble(text(reply, AdaptiveRead.DECREASE)),
            number(reply, AdaptiveRead.HOLD_CAP_MS),
            (int) number(reply, AdaptiveRead.LIMIT),
            number(reply, AdaptiveRead.HOLD_UNTIL_MS),
            reason == null ? "" : reason,
            number(reply, AdaptiveRead.MOVED_AT_MS)));
  }

  static ScriptCode release(Object reply) {
    return code(Replies.asList(reply), Release.CODE);
  }

  static ScriptCode shorten(Object reply) {
    return code(Replies.asList(reply), Shorten.CODE);
  }

  static ScriptCode replaceRecord(Object reply) {
    return code(Replies.asList(reply), ReplaceRecord.CODE);
  }

  static CancelReply cancel(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    String before = text(reply, Cancel.STATE);
    return new CancelReply(
        code(reply, Cancel.CODE),
        before == null || before.isEmpty() ? null : JobState.valueOf(before));
  }

  static Optional<JobInfo> get(QueueName queue, String id, Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    if (r.isEmpty()) {
      return Optional.empty();
    }
    long position = number(r, Get.POSITION);
    Eta eta = null;
    if (position >= 0) {
      EtaEstimator.Conditions conditions =
          new EtaEstimator.Conditions(
              number(r, Get.PAUSED) == 1,
              (int) number(r, Get.RATE_LIMIT),
              (int) number(r, Get.CONCURRENCY_LIMIT),
              Duration.ofMillis(number(r, Get.EXPECTED_SERVICE_MS)),
              number(r, Get.LEASED),
              rateWindow(r, Get.RATE_WINDOW),
              Duration.ofMillis(number(r, Get.RATE_PERIOD_MS)),
              (int) number(r, Get.RATE_BURST));
      eta = EtaEstimator.of(longs(r, Get.DONE_PER_S), conditions).eta(position).orElse(null);
      eta = keyRateBound(eta, r);
    }
    String key = text(r, Get.KEY);
    byte[] result = bytes(r, Get.RESULT);
    return Optional.of(
        new JobInfo(
            queue,
            id,
            JobState.valueOf(text(r, Get.STATE)),
            bytes(r, Get.PAYLOAD),
            (int) number(r, Get.PRIORITY),
            (int) number(r, Get.ATTEMPTS),
            (int) number(r, Get.MAX_ATTEMPTS),
            Duration.ofMillis(number(r, Get.TTR_MS)),
            instant(r, Get.CREATED_MS),
            instant(r, Get.DUE_MS),
            instant(r, Get.EXPIRES_MS),
            instant(r, Get.STARTED_MS),
            instant(r, Get.FINISHED_MS),
            instant(r, Get.LEASE_DEADLINE_MS),
            Replies.asOptionalString(r.get(Get.ERROR.ordinal())),
            result.length == 0 ? null : result,
            position,
            eta,
            key == null || key.isEmpty() ? null : key,
            TraceContext.ofStored(text(r, Get.TRACE))));
  }

  /**
   * A fair queue's ETA is never sooner than the job's key's rate lets the key's jobs ahead of it
   * go, one per period / rate: the band moves up to that bound where it is below it.
   */
  private static Eta keyRateBound(Eta eta, List<Object> r) {
    if (eta == null || r.size() <= Get.KEY_RATE.ordinal() || number(r, Get.KEY_RATE) <= 0) {
      return eta;
    }
    double spacingMs = (double) number(r, Get.KEY_RATE_PERIOD_MS) / number(r, Get.KEY_RATE);
    Duration bound = Duration.ofMillis((long) Math.ceil(number(r, Get.KEY_AHEAD) * spacingMs));
    Duration point = max(eta.point(), bound);
    return new Eta(point, max(eta.low(), bound), max(eta.high(), point));
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  static StatsReply stats(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    List<Object> flat = Replies.asList(r.get(Stats.SETTINGS.ordinal()));
    Map<String, String> settings = new LinkedHashMap<>();
    Map<String, Long> counters = new LinkedHashMap<>();
    for (int i = 0; i < flat.size(); i += 2) {
      String name = Replies.asString(flat.get(i));
      String value = Replies.asString(flat.get(i + 1));
      // Counters share the meta hash with the settings, told apart by their prefix.
      if (name.startsWith("n_")) {
        counters.put(name.substring(2), Long.parseLong(value));
      } else {
        settings.put(name, value);
      }
    }
    return new StatsReply(
        number(r, Stats.READY),
        number(r, Stats.DELAYED),
        number(r, Stats.LEASED),
        number(r, Stats.FINISHED),
        number(r, Stats.DEAD),
        Instant.ofEpochMilli(number(r, Stats.NOW_MS)),
        settings,
        counters,
        longs(r, Stats.DONE_PER_S),
        rateWindow(r, Stats.RATE_WINDOW));
  }

  static List<PeekedJob> peek(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    List<PeekedJob> jobs = new ArrayList<>(r.size());
    for (Object item : r) {
      List<Object> job = Replies.asList(item);
      jobs.add(
          new PeekedJob(
              text(job, Peek.ID),
              bytes(job, Peek.PAYLOAD),
              (int) number(job, Peek.PRIORITY),
              (int) number(job, Peek.ATTEMPTS),
              Instant.ofEpochMilli(number(job, Peek.CREATED_MS))));
    }
    return jobs;
  }

  static DeadPage deadList(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    int first = DeadList.values().length;
    List<DeadJob> jobs = new ArrayList<>(Math.max(0, r.size() - first));
    for (int i = first; i < r.size(); i++) {
      List<Object> job = Replies.asList(r.get(i));
      jobs.add(
          new DeadJob(
              text(job, DeadJobField.ID),
              bytes(job, DeadJobField.PAYLOAD),
              (int) number(job, DeadJobField.PRIORITY),
              (int) number(job, DeadJobField.ATTEMPTS),
              Replies.asOptionalString(job.get(DeadJobField.ERROR.ordinal())),
              Instant.ofEpochMilli(number(job, DeadJobField.DIED_MS))));
    }
    return new DeadPage(number(r, DeadList.TOTAL), jobs);
  }

  static JobsListReply jobsList(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    int first = JobsList.values().length;
    List<ListedJob> jobs = new ArrayList<>(Math.max(0, r.size() - first));
    for (int i = first; i < r.size(); i++) {
      List<Object> job = Replies.asList(r.get(i));
      JobState state = JobState.valueOf(text(job, ListedJobField.STATE));
      String error = text(job, ListedJobField.ERROR);
      Instant at =
          state == JobState.READY
              ? null
              : Instant.ofEpochMilli((long) Double.parseDouble(text(job, ListedJobField.SCORE)));
      jobs.add(
          new ListedJob(
              text(job, ListedJobField.ID),
              state,
              bytes(job, ListedJobField.PAYLOAD),
              (int) number(job, ListedJobField.PRIORITY),
              (int) number(job, ListedJobField.ATTEMPTS),
              Instant.ofEpochMilli(number(job, ListedJobField.CREATED_MS)),
              at,
              state == JobState.READY ? number(job, ListedJobField.INDEX) : -1,
              error.isEmpty() ? null : error));
    }
    String lastId = text(r, JobsList.LAST_ID);
    return new JobsListReply(
        number(r, JobsList.SCANNED),
        number(r, JobsList.MORE) == 1,
        lastId.isEmpty() ? null : text(r, JobsList.LAST_SCORE),
        lastId.isEmpty() ? null : lastId,
        jobs);
  }

  static List<ActOutcome> jobsAct(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    List<ActOutcome> outcomes = new ArrayList<>(r.size());
    for (Object item : r) {
      List<Object> outcome = Replies.asList(item);
      String state = text(outcome, ActOutcomeField.STATE);
      outcomes.add(
          new ActOutcome(
              number(outcome, ActOutcomeField.DONE) == 1,
              state.isEmpty() ? null : JobState.valueOf(state)));
    }
    return outcomes;
  }

  static BatchReply batch(Object replyObject) {
    List<Object> r = Replies.asList(replyObject);
    return new BatchReply(number(r, Batch.DONE), number(r, Batch.LEFT));
  }

  /** A read of schedules: the clock, the queue's earliest due tick and the schedules found. */
  static ScheduleStore.Read scheduleRead(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    int first = ScheduleRead.values().length;
    int fields = ScheduleField.values().length;
    List<ScheduleStore.Stored> found = new ArrayList<>((reply.size() - first) / fields);
    for (int at = first; at + fields <= reply.size(); at += fields) {
      List<Object> group = reply.subList(at, at + fields);
      String due = text(group, ScheduleField.DUE);
      found.add(
          new ScheduleStore.Stored(
              ScheduleCodec.decode(bytes(group, ScheduleField.SPEC)),
              ScheduleStore.State.parse(text(group, ScheduleField.STATE)),
              due.isEmpty() ? -1 : (long) Double.parseDouble(due)));
    }
    return new ScheduleStore.Read(
        number(reply, ScheduleRead.NOW) * 1000 + number(reply, ScheduleRead.NOW_US),
        number(reply, ScheduleRead.EARLIEST),
        found);
  }

  /** The state a schedule write stored, or empty when the schedule had moved (nothing written). */
  static Optional<ScheduleStore.State> scheduleWrite(Object replyObject) {
    List<Object> reply = Replies.asList(replyObject);
    if (number(reply, ScheduleWrite.CODE) != 1) {
      return Optional.empty();
    }
    return Optional.of(ScheduleStore.State.parse(text(reply, ScheduleWrite.STATE)));
  }

  /** A fire's answer for {@code entries} entries. */
  static ScheduleStore.FireReply scheduleFire(Object replyObject, int entries) {
    List<Object> reply = Replies.asList(replyObject);
    int first = ScheduleFire.values().length;
    int fields = ScheduleFireEntry.values().length;
    if (reply.size() != first + entries * fields) {
      throw new IllegalStateException(
          "a schedule fire reply of " + reply.size() + " values for " + entries + " entries");
    }
    int[] codes = new int[entries];
    int[] published = new int[entries];
    for (int i = 0; i < entries; i++) {
      List<Object> group = reply.subList(first + i * fields, first + (i + 1) * fields);
      codes[i] = (int) number(group, ScheduleFireEntry.CODE);
      published[i] = (int) number(group, ScheduleFireEntry.PUBLISHED);
    }
    return new ScheduleStore.FireReply(
        number(reply, ScheduleFire.NOW) * 1000 + number(reply, ScheduleFire.NOW_US),
        number(reply, ScheduleFire.EARLIEST),
        codes,
        published);
  }

  /** Whether a deleted schedule existed. */
  static boolean scheduleDelete(Object reply) {
    return number(Replies.asList(reply), ScheduleDelete.EXISTED) == 1;
  }

  /** How many jobs a sweep handled; {@link Promote} starts with the same count. */
  static long sweep(Object reply) {
    return number(Replies.asList(reply), Sweep.HANDLED);
  }

  private static long number(List<Object> reply, Enum<?> field) {
    return Replies.asLong(reply.get(field.ordinal()));
  }

  /** The rate window table of {@code lib/service.lua}: leases, oldest_ago_ms, newest_ago_ms. */
  private static EtaEstimator.RateWindow rateWindow(List<Object> reply, Enum<?> field) {
    List<Long> values = longs(reply, field);
    return values.get(0) == 0
        ? EtaEstimator.RateWindow.EMPTY
        : new EtaEstimator.RateWindow(values.get(0), values.get(1), values.get(2));
  }

  /** A nested table of whole numbers. */
  private static List<Long> longs(List<Object> reply, Enum<?> field) {
    List<Object> values = Replies.asList(reply.get(field.ordinal()));
    List<Long> numbers = new ArrayList<>(values.size());
    for (Object value : values) {
      numbers.add(Replies.asLong(value));
    }
    return numbers;
  }

  private static String text(List<Object> reply, Enum<?> field) {
    return Replies.asString(reply.get(field.ordinal()));
  }

  private static byte[] bytes(List<Object> reply, Enum<?> field) {
    return Replies.asBytes(reply.get(field.ordinal()));
  }

  private static Instant instant(List<Object> reply, Enum<?> field) {
    return Replies.asInstant(reply.get(field.ordinal()));
  }

  private static ScriptCode code(List<Object> reply, Enum<?> field) {
    return ScriptCode.of(number(reply, field));
  }
}
