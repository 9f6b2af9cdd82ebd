package io.lineup.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.ScheduleSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a spec's ticks are, computed without Redis ({@link Schedules#next(ScheduleSpec, Instant,
 * int)}): six-field cron expressions in a time zone, daylight saving nights included, intervals,
 * start and end times and run limits; and the spec's checks.
 */
class ScheduleSpecTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
  private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");

  @Test
  void aNightlyCronInBerlinTicksAtTwoInTheMorningLocalTimeWinterAndSummer() {
    ScheduleSpec nightly = ScheduleSpec.cron("nightly-report", "0 0 2 * * *", BERLIN).build();

    assertThat(Schedules.next(nightly, Instant.parse("2026-01-10T12:00:00Z"), 2))
        .containsExactly(
            Instant.parse("2026-01-11T01:00:00Z"), Instant.parse("2026-01-12T01:00:00Z"));
    assertThat(Schedules.next(nightly, Instant.parse("2026-07-10T12:00:00Z"), 1))
        .containsExactly(Instant.parse("2026-07-11T00:00:00Z"));
  }

  @Test
  void onTheSpringForwardNightInBerlinATickAtTwoThirtyIsSkippedBecauseThatTimeDoesNotExist() {
    // 2026-03-29: clocks go from 02:00 CET straight to 03:00 CEST, so 02:30 never happens.
    ScheduleSpec spec = ScheduleSpec.cron("half-past-two", "0 30 2 * * *", BERLIN).build();

    List<Instant> ticks = Schedules.next(spec, Instant.parse("2026-03-27T12:00:00Z"), 3);

    assertThat(ticks)
        .containsExactly(
            Instant.parse("2026-03-28T01:30:00Z"), // 02:30 CET on the 28th
            Instant.parse("2026-03-30T00:30:00Z"), // 02:30 CEST on the 30th: the 29th has none
            Instant.parse("2026-03-31T00:30:00Z"));
  }

  @Test
  void onTheFallBackNightInNewYorkATickAtOneThirtyRunsOnceAtTheFirstOneThirty() {
    // 2026-11-01: clocks go from 02:00 EDT back to 01:00 EST, so 01:30 happens twice.
    ScheduleSpec spec = ScheduleSpec.cron("half-past-one", "0 30 1 * * *", NEW_YORK).build();

    List<Instant> ticks = Schedules.next(spec, Instant.parse("2026-10-31T12:00:00Z"), 2);

    assertThat(ticks)
        .containsExactly(
            Instant.parse("2026-11-01T05:30:00Z"), // 01:30 EDT, the first of the two
            Instant.parse("2026-11-02T06:30:00Z")); // 01:30 EST the next day
  }

  @Test
  void anEverySecondCronWithStepsTicksOnTheSecondsItNames() {
    ScheduleSpec spec = ScheduleSpec.cron("every-15s", "*/15 * * * * *", null).build();

    assertThat(spec.zone()).isEqualTo(ZoneId.of("Z"));
    assertThat(Schedules.next(spec, Instant.parse("2026-05-01T10:00:01Z"), 3))
        .containsExactly(
            Instant.parse("2026-05-01T10:00:15Z"),
            Instant.parse("2026-05-01T10:00:30Z"),
            Instant.parse("2026-05-01T10:00:45Z"));
  }

  @Test
  void cronTicksAreWholeSecondsWhateverTheMillisecondsOfTheStartingInstant() {
    ScheduleSpec spec = ScheduleSpec.cron("every-second", "* * * * * *", null).build();

    assertThat(Schedules.next(spec, Instant.parse("2026-05-01T10:00:00.732Z"), 3))
        .containsExactly(
            Instant.parse("2026-05-01T10:00:01Z"),
            Instant.parse("2026-05-01T10:00:02Z"),
            Instant.parse("2026-05-01T10:00:03Z"));
    assertThat(spec.tickAtOrBefore(Instant.parse("2026-05-01T10:00:02.999Z"), null))
        .contains(Instant.parse("2026-05-01T10:00:02Z"));
  }

  @Test
  void aTickExactlyAtTheStartingInstantCounts() {
    ScheduleSpec spec = ScheduleSpec.cron("minutely", "0 * * * * *", null).build();

    assertThat(Schedules.next(spec, Instant.parse("2026-05-01T10:00:00Z"), 1))
        .containsExactly(Instant.parse("2026-05-01T10:00:00Z"));
  }

  @Test
  void lastDayNearestWeekdayAndNthWeekdayOfTheMonthAreRead() {
    ScheduleSpec monthEnd = ScheduleSpec.cron("month-end", "0 0 2 L * *", null).build();
    ScheduleSpec payday = ScheduleSpec.cron("payday", "0 0 9 15W * *", null).build();
    ScheduleSpec secondMonday = ScheduleSpec.cron("board", "0 0 10 * * MON#2", null).build();

    assertThat(Schedules.next(monthEnd, Instant.parse("2026-02-10T00:00:00Z"), 2))
        .containsExactly(
            Instant.parse("2026-02-28T02:00:00Z"), Instant.parse("2026-03-31T02:00:00Z"));
    // 2026-08-15 is a Saturday: the nearest weekday is Friday the 14th.
    assertThat(Schedules.next(payday, Instant.parse("2026-08-01T00:00:00Z"), 1))
        .containsExactly(Instant.parse("2026-08-14T09:00:00Z"));
    assertThat(Schedules.next(secondMonday, Instant.parse("2026-06-01T00:00:00Z"), 1))
        .containsExactly(Instant.parse("2026-06-08T10:00:00Z"));
  }

  @Test
  void anIntervalTicksFromItsStartTimeOrElseFromTheInstantGiven() {
    ScheduleSpec cleanup = ScheduleSpec.every("cleanup", Duration.ofMinutes(5)).build();
    Instant from = Instant.parse("2026-05-01T10:02:00Z");

    assertThat(Schedules.next(cleanup, from, 3))
        .containsExactly(from, from.plus(Duration.ofMinutes(5)), from.plus(Duration.ofMinutes(10)));

    ScheduleSpec anchored =
        cleanup.toBuilder().startAt(Instant.parse("2026-05-01T10:00:00Z")).build();
    assertThat(Schedules.next(anchored, from, 2))
        .containsExactly(
            Instant.parse("2026-05-01T10:05:00Z"), Instant.parse("2026-05-01T10:10:00Z"));
  }

  @Test
  void noTickComesBeforeTheStartTimeOrAfterTheEndTimeOrBeyondTheRunLimit() {
    ScheduleSpec spec =
        ScheduleSpec.cron("hourly", "0 0 * * * *", null)
            .startAt(Instant.parse("2026-05-01T12:30:00Z"))
            .endAt(Instant.parse("2026-05-01T15:00:00Z"))
            .build();

    assertThat(Schedules.next(spec, Instant.parse("2026-05-01T00:00:00Z"), 10))
        .containsExactly(
            Instant.parse("2026-05-01T13:00:00Z"),
            Instant.parse("2026-05-01T14:00:00Z"),
            Instant.parse("2026-05-01T15:00:00Z"));
    assertThat(
            Schedules.next(
                spec.toBuilder().maxRuns(2L).build(), Instant.parse("2026-05-01T00:00:00Z"), 10))
        .hasSize(2);
  }

  @Test
  void theLastTickAtOrBeforeAnInstantIsFoundForCronAndIntervals() {
    ScheduleSpec cron = ScheduleSpec.cron("minutely", "0 * * * * *", null).build();
    assertThat(cron.tickAtOrBefore(Instant.parse("2026-05-01T10:07:59Z"), null))
        .contains(Instant.parse("2026-05-01T10:07:00Z"));
    assertThat(cron.tickAtOrBefore(Instant.parse("2026-05-01T10:07:00Z"), null))
        .contains(Instant.parse("2026-05-01T10:07:00Z"));

    ScheduleSpec every = ScheduleSpec.every("e", Duration.ofMillis(50)).build();
    Instant anchor = Instant.parse("2026-05-01T10:00:00Z");
    assertThat(every.tickAtOrBefore(anchor.plusMillis(149), anchor))
        .contains(anchor.plusMillis(100));
    assertThat(every.tickAtOrBefore(anchor.minusMillis(1), anchor)).isEmpty();
  }

  @Test
  void aCronExpressionWithAWrongFieldIsRefusedNamingThatField() {
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 61 * * * *", null).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("minutes")
        .hasMessageContaining("61")
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo("cron"));
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 0 25 * * *", null).build())
        .hasMessageContaining("hours");
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 0 0 32 * *", null).build())
        .hasMessageContaining("day-of-month");
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 0 0 * 13 *", null).build())
        .hasMessageContaining("month");
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 0 0 * * FUNDAY", null).build())
        .hasMessageContaining("day-of-week");
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "x 0 0 * * *", null).build())
        .hasMessageContaining("seconds");
  }

  @Test
  void aFiveFieldUnixExpressionIsRefusedSayingSixFieldsWithSecondsAreExpected() {
    assertThatThrownBy(() -> ScheduleSpec.cron("x", "0 2 * * *", null).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("expected 6 fields")
        .hasMessageContaining("seconds minutes hours day-of-month month day-of-week");
  }

  @Test
  void badSpecFieldsAreRefusedNamingTheField() {
    assertField(() -> ScheduleSpec.every("bad name", Duration.ofSeconds(1)).build(), "name");
    assertField(() -> ScheduleSpec.every("n".repeat(129), Duration.ofSeconds(1)).build(), "name");
    assertField(() -> ScheduleSpec.every("x", Duration.ofMillis(9)).build(), "every");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).priority(256).build(), "priority");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).maxAttempts(0).build(), "maxAttempts");
    assertField(
        () ->
            ScheduleSpec.every("x", Duration.ofSeconds(1)).timeToRun(Duration.ofMillis(1)).build(),
        "timeToRun");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).maxRuns(0L).build(), "maxRuns");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).jitter(Duration.ofDays(2)).build(),
        "jitter");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).historySize(1001).build(),
        "historySize");
    assertField(
        () -> ScheduleSpec.every("x", Duration.ofSeconds(1)).catchUpMax(0).build(), "catchUpMax");
    assertField(
        () ->
            ScheduleSpec.every("x", Duration.ofSeconds(1))
                .startAt(Instant.parse("2026-02-01T00:00:00Z"))
                .endAt(Instant.parse("2026-01-01T00:00:00Z"))
                .build(),
        "endAt");
    assertField(
        () ->
            Schedules.next(
                ScheduleSpec.every("x", Duration.ofSeconds(1)).build(), Instant.EPOCH, 0),
        "n");
  }

  @Test
  void theJitterOfATickIsWithinItsBoundAndTheSameEveryTimeItIsAsked() {
    ScheduleSpec spec =
        ScheduleSpec.every("jittery", Duration.ofSeconds(1)).jitter(Duration.ofMillis(250)).build();
    Instant tick = Instant.parse("2026-05-01T10:00:00Z");
    for (int i = 0; i < 200; i++) {
      Instant t = tick.plusSeconds(i);
      assertThat(spec.jitterAt(t)).isBetween(Duration.ZERO, Duration.ofMillis(250));
      assertThat(spec.jitterAt(t)).isEqualTo(spec.jitterAt(t));
    }
    assertThat(ScheduleSpec.every("calm", Duration.ofSeconds(1)).build().jitterAt(tick)).isZero();
  }

  @Test
  void aSpecIsImmutableAndEqualToACopyOfItself() {
    byte[] payload = {1, 2, 3};
    ScheduleSpec spec = ScheduleSpec.every("x", Duration.ofSeconds(1)).payload(payload).build();
    payload[0] = 9;
    spec.payload()[1] = 9;

    assertThat(spec.payload()).containsExactly(1, 2, 3);
    assertThat(spec.toBuilder().build()).isEqualTo(spec).hasSameHashCodeAs(spec);
    assertThat(spec.withPaused(true).paused()).isTrue();
  }

  private static void assertField(Runnable call, String field) {
    assertThatThrownBy(call::run)
        .isInstanceOf(InvalidArgumentException.class)
        .satisfies(e -> assertThat(((InvalidArgumentException) e).field()).isEqualTo(field));
  }
}
