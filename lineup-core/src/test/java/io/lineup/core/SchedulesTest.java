package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.JobInfo;
import io.lineup.core.model.MissedTicks;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.PeekedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.Schedule;
import io.lineup.core.model.ScheduleNotFoundException;
import io.lineup.core.model.ScheduleRun;
import io.lineup.core.model.ScheduleSpec;
import io.lineup.core.model.ScheduleState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recurring schedules: exactly one job per tick whatever the number of engines, upserts in place,
 * pause, resume, delete, the next ticks without jobs, missed ticks after an outage, run limits and
 * history. Time is a {@link ManualClock} shared by the test's engines, so a tick is due when the
 * test moves the clock, and what is asserted is what the engines decided. Runs on both topologies
 * ({@link SchedulesOnStandaloneTest}, {@link SchedulesOnClusterTest}).
 */
abstract class SchedulesTest extends EngineSuite {
  /** A minute boundary plus 30 s: a minutely schedule upserted now first ticks 30 s later. */
  static final Instant START = Instant.parse("2030-06-01T00:00:30Z");

  ManualClock clock;
  Lineup lineup;
  final List<Lineup> others = new ArrayList<>();

  @BeforeEach
  void connect() {
    clock = new ManualClock(START);
    lineup = anEngine(options -> options.timeSource(clock));
  }

  @AfterEach
  void close() {
    // The test's schedules go with it, so that no later engine on this Redis fires them.
    for (QueueName queue : lineup.schedules().queues()) {
      if (queue.namespace().startsWith("ns")) {
        lineup.schedules().list(queue).forEach(s -> lineup.schedules().delete(queue, s.name()));
      }
    }
    others.forEach(Lineup::close);
    others.clear();
    lineup.close();
  }

  Lineup anotherEngine() {
    Lineup other = anEngine(options -> options.timeSource(clock));
    others.add(other);
    return other;
  }

  static ConditionFactory eventually() {
    return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10));
  }

  static ScheduleSpec.Builder minutely(String name) {
    return ScheduleSpec.cron(name, "0 * * * * *", null).payloadText(name);
  }

  /** Ids of the queue's ready jobs, in line order. */
  List<String> readyIds(QueueName queue) {
    return lineup.peek(queue, 0, 1000).stream().map(PeekedJob::id).toList();
  }

  static String idOf(String name, Instant tick) {
    return "sched:" + name + ":" + tick.toEpochMilli();
  }

  /** Moves the clock and waits until the schedule's run count reaches {@code runs}. */
  void advanceAndAwaitRuns(QueueName queue, String name, Duration by, long runs) {
    clock.advance(by);
    eventually()
        .untilAsserted(() ->
            assertThat(lineup.schedules().get(queue, name).orElseThrow().runs()).isEqualTo(runs));
  }

  @Test
  void anUpsertedScheduleIsActiveWithItsFirstTickAndNoJobUntilThen() {
    QueueName queue = aFreshQueue();

    Schedule schedule = lineup.schedules().upsert(queue, minutely("report").build());

    assertThat(schedule.state()).isEqualTo(ScheduleState.ACTIVE);
    assertThat(schedule.version()).isEqualTo(1);
    assertThat(schedule.runs()).isZero();
    assertThat(schedule.lastTick()).isEmpty();
    assertThat(schedule.nextTick()).contains(Instant.parse("2030-06-01T00:01:00Z"));
    assertThat(lineup.schedules().get(queue, "report")).contains(schedule);
    assertThat(lineup.schedules().list(queue)).containsExactly(schedule);
    assertThat(lineup.schedules().queues()).contains(queue);
    assertThat(lineup.isKnown(queue)).isTrue();
    assertThat(readyIds(queue)).isEmpty();
  }

  @Test
  void aScheduleWithAKeyPublishesItsJobsUnderThatKeyInAFairQueue() {
    QueueName queue = aFreshQueue();
    lineup.configure(queue, QueueSettings.builder().fair(true).build());
    lineup.schedules().upsert(queue, minutely("report").key("acme").build());

    advanceAndAwaitRuns(queue, "report", Duration.ofSeconds(30), 1);

    String id = idOf("report", Instant.parse("2030-06-01T00:01:00Z"));
    assertThat(lineup.get(queue, id).orElseThrow().key()).isEqualTo("acme");
    assertThat(lineup.fairness().key(queue, "acme").waiting()).isEqualTo(1);
  }

  @Test
  void aDueTickPublishesOneJobWithTheTemplateAndAnIdFromTheNameAndTick() {
    QueueName queue = aFreshQueue();
    lineup
        .schedules()
        .upsert(
            queue, minutely("report").payloadText("{\"r\":1}").priority(7).maxAttempts(3).build());

    advanceAndAwaitRuns(queue, "report", Duration.ofSeconds(30), 1);

    Instant tick = Instant.parse("2030-06-01T00:01:00Z");
    String id = idOf("report", tick);
    assertThat(readyIds(queue)).containsExactly(id);
    JobInfo job = lineup.get(queue, id).orElseThrow();
    assertThat(new String(job.payload(), StandardCharsets.UTF_8)).isEqualTo("{\"r\":1}");
    assertThat(job.priority()).isEqualTo(7);
    assertThat(job.maxAttempts()).isEqualTo(3);
    Schedule schedule = lineup.schedules().get(queue, "report").orElseThrow();
    assertThat(schedule.lastTick()).contains(tick);
    assertThat(schedule.nextTick()).contains(tick.plusSeconds(60));
    assertThat(lineup.schedules().history(queue, "report"))
        .containsExactly(new ScheduleRun(tick, id, clock.now(), ScheduleRun.Outcome.PUBLISHED));
  }

  @Test
  void threeEnginesRacingFor200TicksPublishEveryTickOnceAndNoneTwice() {
    QueueName queue = aFreshQueue();
    anotherEngine();
    anotherEngine();
    Instant first = START.plusMillis(500);
    lineup
        .schedules()
        .upsert(
            queue,
            ScheduleSpec.every("race", Duration.ofSeconds(1))
                .startAt(first)
                .historySize(1000)
                .build());

    for (int tick = 1; tick <= 200; tick++) {
      advanceAndAwaitRuns(
          queue, "race", tick == 1 ? Duration.ofMillis(500) : Duration.ofSeconds(1), tick);
    }

    List<String> expected =
        IntStream.range(0, 200).mapToObj(i -> idOf("race", first.plusSeconds(i))).toList();
    assertThat(readyIds(queue)).containsExactlyElementsOf(expected);
    List<ScheduleRun> history = lineup.schedules().history(queue, "race");
    assertThat(history).hasSize(200);
    assertThat(history).allMatch(run -> run.outcome() == ScheduleRun.Outcome.PUBLISHED);
    assertThat(lineup.stats(queue).ready()).isEqualTo(200);
  }

  @Test
  void threeEnginesOnTheRedisClockRacingFor200TicksOf50MsPublishEveryTickOnce() {
    QueueName queue = aFreshQueue();
    // Every engine of a Redis must share its clock: a manual one would see these ticks years late.
    lineup.close();
    lineup = anEngine(options -> options);
    List<Lineup> engines = List.of(lineup, onRedisClock(), onRedisClock());
    // CATCH_UP: a machine too busy to keep up still publishes every tick, late.
    engines
        .get(0)
        .schedules()
        .upsert(
            queue,
            ScheduleSpec.every("race", Duration.ofMillis(50))
                .missed(MissedTicks.CATCH_UP)
                .maxRuns(200L)
                .historySize(1000)
                .build());

    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(() ->
            engines.get(1).schedules().get(queue, "race").orElseThrow().state()
                == ScheduleState.ENDED);
    // The last ticks were fired ahead of their time, their jobs due at their ticks.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> lineup.stats(queue).ready() == 200 && lineup.stats(queue).delayed() == 0);

    // Sorted by tick: under load a tick caught up late may enter the line after a later one.
    List<String> ids =
        readyIds(queue).stream()
            .sorted(Comparator.comparingLong(id -> Long.parseLong(id.substring(11))))
            .toList();
    assertThat(ids).hasSize(200);
    long first = Long.parseLong(ids.get(0).substring("sched:race:".length()));
    assertThat(ids)
        .containsExactlyElementsOf(
            IntStream.range(0, 200).mapToObj(k -> "sched:race:" + (first + 50L * k)).toList());
    assertThat(lineup.schedules().history(queue, "race"))
        .hasSize(200)
        .allMatch(run -> run.outcome() == ScheduleRun.Outcome.PUBLISHED);
  }

  Lineup onRedisClock() {
    Lineup other = anEngine(options -> options);
    others.add(other);
    return other;
  }

  @Test
  void anUpsertInPlaceChangesTheJobFromTheNextTickAndKeepsRunsAndHistory() {
    QueueName queue = aFreshQueue();
    lineup.schedules().upsert(queue, minutely("report").payloadText("v1").build());
    advanceAndAwaitRuns(queue, "report", Duration.ofSeconds(30), 1); // 00:01:00

    Schedule changed =
        lineup
            .schedules()
            .upsert(
                queue, ScheduleSpec.cron("report", "30 * * * * *", null).payloadText("v2").build());

    assertThat(changed.version()).isEqualTo(2);
    assertThat(changed.runs()).isEqualTo(1);
    assertThat(changed.nextTick()).contains(Instant.parse("2030-06-01T00:01:30Z"));
    advanceAndAwaitRuns(queue, "report", Duration.ofSeconds(30), 2); // 00:01:30
    Instant first = Instant.parse("2030-06-01T00:01:00Z");
    Instant second = Instant.parse("2030-06-01T00:01:30Z");
    assertThat(readyIds(queue)).containsExactly(idOf("report", first), idOf("report", second));
    assertThat(payloadOf(queue, idOf("report", first))).isEqualTo("v1");
    assertThat(payloadOf(queue, idOf("report", second))).isEqualTo("v2");
    assertThat(lineup.schedules().history(queue, "report"))
        .extracting(ScheduleRun::tick)
        .containsExactly(second, first);
  }

  @Test
  void aPausedSchedulePublishesNothingAndOnResumeTicksFromNowWithoutThePausedTicks() {
    QueueName queue = aFreshQueue();
    lineup.schedules().upsert(queue, minutely("report").build());

    Schedule paused = lineup.schedules().pause(queue, "report");
    assertThat(paused.state()).isEqualTo(ScheduleState.PAUSED);
    assertThat(paused.nextTick()).isEmpty();
    assertThat(paused.spec().paused()).isTrue();
    assertThat(paused.version()).isEqualTo(1);
    clock.advance(Duration.ofMinutes(5)); // 00:05:30
    Schedule resumed = lineup.schedules().resume(queue, "report");

    assertThat(resumed.state()).isEqualTo(ScheduleState.ACTIVE);
    assertThat(resumed.nextTick()).contains(Instant.parse("2030-06-01T00:06:00Z"));
    advanceAndAwaitRuns(queue, "report", Duration.ofSeconds(30), 1);
    assertThat(readyIds(queue))
        .containsExactly(idOf("report", Instant.parse("2030-06-01T00:06:00Z")));
    assertThat(lineup.schedules().pause(queue, "report").state()).isEqualTo(ScheduleState.PAUSED);
    assertThat(lineup.schedules().pause(queue, "report").state()).isEqualTo(ScheduleState.PAUSED);
  }

  @Test
  void aDeletedScheduleIsGoneAndPublishesNoMore() {
    QueueName queue = aFreshQueue();
    lineup.schedules().upsert(queue, minutely("report").build());

    assertThat(lineup.schedules().delete(queue, "report")).isTrue();

    assertThat(lineup.schedules().delete(queue, "report")).isFalse();
    assertThat(lineup.schedules().get(queue, "report")).isEmpty();
    assertThat(lineup.schedules().list(queue)).isEmpty();
    assertThatThrownBy(() -> lineup.schedules().history(queue, "report"))
        .isInstanceOf(ScheduleNotFoundException.class)
        .hasMessageContaining("report");
    assertThatThrownBy(() -> lineup.schedules().pause(queue, "report"))
        .isInstanceOf(ScheduleNotFoundException.class);
    assertThatThrownBy(() -> lineup.schedules().next(queue, "report", 3))
        .isInstanceOf(ScheduleNotFoundException.class);
    // A schedule next to it still ticks, and the deleted one made nothing meanwhile.
    lineup.schedules().upsert(queue, minutely("other").build());
    advanceAndAwaitRuns(queue, "other", Duration.ofSeconds(30), 1);
    assertThat(readyIds(queue))
        .containsExactly(idOf("other", Instant.parse("2030-06-01T00:01:00Z")));
  }

  @Test
  void aScheduleWhoseJobIsOverThePayloadLimitIsRefusedAndNothingIsWritten() {
    QueueName queue = aFreshQueue();
    byte[] big = new byte[lineup.options().maxPayloadBytes() + 1];

    assertThatThrownBy(() -> lineup.schedules().upsert(queue, minutely("big").payload(big).build()))
        .isInstanceOf(PayloadTooLargeException.class)
        .hasMessageContaining("payload");
    assertThat(lineup.schedules().get(queue, "big")).isEmpty();
  }

  @Test
  void theNextTicksOfAScheduleAreListedWithoutPublishingAnything() {
    QueueName queue = aFreshQueue();
    lineup.schedules().upsert(queue, minutely("report").maxRuns(3L).build());

    assertThat(lineup.schedules().next(queue, "report", 5))
        .containsExactly(
            Instant.parse("2030-06-01T00:01:00Z"),
            Instant.parse("2030-06-01T00:02:00Z"),
            Instant.parse("2030-06-01T00:03:00Z"));
    assertThat(readyIds(queue)).isEmpty();
    assertThat(lineup.schedules().get(queue, "report").orElseThrow().runs()).isZero();
  }

  @Test
  void afterItsMostRunsAScheduleEnds() {
    QueueName queue = aFreshQueue();
    lineup
        .schedules()
        .upsert(queue, ScheduleSpec.every("thrice", Duration.ofSeconds(1)).maxRuns(3L).build());
    // An interval schedule without a start time ticks first when it is created.
    eventually()
        .untilAsserted(() ->
            assertThat(lineup.schedules().get(queue, "thrice").orElseThrow().runs()).isEqualTo(1));
    advanceAndAwaitRuns(queue, "thrice", Duration.ofSeconds(1), 2);
    advanceAndAwaitRuns(queue, "thrice", Duration.ofSeconds(1), 3);

    clock.advance(Duration.ofSeconds(5));
    Schedule ended = lineup.schedules().get(queue, "thrice").orElseThrow();
    assertThat(ended.state()).isEqualTo(ScheduleState.ENDED);
    assertThat(ended.nextTick()).isEmpty();
    assertThat(readyIds(queue)).hasSize(3);
    assertThat(lineup.schedules().next(queue, "thrice", 3)).isEmpty();
  }

  @Test
  void missedTicksAfterATenMinuteOutageMakeOneJobNowUnderSkip() {
    QueueName queue = aFreshQueue();
    Schedule schedule = missTenMinutes(queue, MissedTicks.SKIP, 100);

    Instant latest = Instant.parse("2030-06-01T00:11:00Z");
    assertThat(readyIds(queue))
        .containsExactly(idOf("s", Instant.parse("2030-06-01T00:01:00Z")), idOf("s", latest));
    assertThat(schedule.nextTick()).contains(Instant.parse("2030-06-01T00:12:00Z"));
    List<ScheduleRun> history = lineup.schedules().history(queue, "s");
    assertThat(history.get(0).tick()).isEqualTo(latest);
    assertThat(history.get(0).outcome()).isEqualTo(ScheduleRun.Outcome.PUBLISHED);
    // The nine ticks from 00:02 to 00:10 are recorded as skipped.
    assertThat(history.subList(1, 10))
        .allMatch(run -> run.outcome() == ScheduleRun.Outcome.SKIPPED_MISSED);
    assertThat(history.get(9).tick()).isEqualTo(Instant.parse("2030-06-01T00:02:00Z"));
  }

  @Test
  void missedTicksAfterATenMinuteOutageMakeOneJobPerTickUnderCatchUp() {
    QueueName queue = aFreshQueue();
    missTenMinutes(queue, MissedTicks.CATCH_UP, 100);
    // 00:01 on time, then the ten ticks 00:02 to 00:11 caught up.
    assertThat(readyIds(queue))
        .containsExactlyElementsOf(
            IntStream.rangeClosed(1, 11)
                .mapToObj(
                    m -> idOf("s", Instant.parse("2030-06-01T00:00:00Z").plusSeconds(60L * m)))
                .toList());
  }

  @Test
  void missedTicksAfterATenMinuteOutageMakeJobsOnlyForTheLatestTicksWithinTheCatchUpBound() {
    QueueName bounded = aFreshQueue();
    missTenMinutes(bounded, MissedTicks.CATCH_UP, 4);
    // Only the four latest missed ticks, 00:08 to 00:11.
    assertThat(readyIds(bounded))
        .containsExactlyElementsOf(
            IntStream.of(1, 8, 9, 10, 11)
                .mapToObj(
                    m -> idOf("s", Instant.parse("2030-06-01T00:00:00Z").plusSeconds(60L * m)))
                .toList());
  }

  @Test
  void missedTicksAfterATenMinuteOutageMakeNoJobUnderNone() {
    QueueName queue = aFreshQueue();
    Schedule schedule = missTenMinutes(queue, MissedTicks.NONE, 100);

    assertThat(readyIds(queue)).containsExactly(idOf("s", Instant.parse("2030-06-01T00:01:00Z")));
    assertThat(schedule.runs()).isEqualTo(1);
    assertThat(schedule.nextTick()).contains(Instant.parse("2030-06-01T00:12:00Z"));
    assertThat(lineup.schedules().history(queue, "s"))
        .filteredOn(run -> run.outcome() == ScheduleRun.Outcome.SKIPPED_MISSED)
        .hasSize(10);
  }

  /**
   * A minutely schedule ticks once at 00:01, then the clock jumps ten minutes (an outage of every
   * engine): returns the schedule once its driver handled the missed ticks.
   */
  Schedule missTenMinutes(QueueName queue, MissedTicks policy, int catchUpMax) {
    lineup.schedules().upsert(queue, minutely("s").missed(policy).catchUpMax(catchUpMax).build());
    advanceAndAwaitRuns(queue, "s", Duration.ofSeconds(30), 1); // 00:01:00
    clock.advance(Duration.ofMinutes(10).plusSeconds(1)); // 00:11:01
    eventually()
        .untilAsserted(() ->
            assertThat(lineup.schedules().get(queue, "s").orElseThrow().nextTick())
                .contains(Instant.parse("2030-06-01T00:12:00Z")));
    return lineup.schedules().get(queue, "s").orElseThrow();
  }

  @Test
  void aJitteredTicksJobIsDueWithinTheJitterAfterItsTick() {
    QueueName queue = aFreshQueue();
    ScheduleSpec spec = minutely("jittery").jitter(Duration.ofSeconds(20)).build();
    lineup.schedules().upsert(queue, spec);

    advanceAndAwaitRuns(queue, "jittery", Duration.ofSeconds(30), 1);

    Instant tick = Instant.parse("2030-06-01T00:01:00Z");
    JobInfo job = lineup.get(queue, idOf("jittery", tick)).orElseThrow();
    Instant due = Optional.ofNullable(job.dueAt()).orElse(job.createdAt());
    assertThat(due).isEqualTo(tick.plus(spec.jitterAt(tick)));
  }

  @Test
  void aScheduleUpsertedOnOneEngineIsFiredByAnotherWhenItsOwnEngineIsGone() {
    QueueName queue = aFreshQueue();
    Lineup other = anotherEngine();
    lineup.schedules().upsert(queue, minutely("handover").build());
    lineup.close();
    lineup = anEngine(options -> options.timeSource(clock).maintenance(false));

    clock.advance(Duration.ofSeconds(30));

    eventually()
        .untilAsserted(() ->
            assertThat(other.schedules().get(queue, "handover").orElseThrow().runs()).isEqualTo(1));
  }

  String payloadOf(QueueName queue, String id) {
    return new String(lineup.get(queue, id).orElseThrow().payload(), StandardCharsets.UTF_8);
  }
}
