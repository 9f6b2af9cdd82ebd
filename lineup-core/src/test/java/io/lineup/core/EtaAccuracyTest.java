package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lineup.core.internal.store.KeySpace;
import io.lineup.core.model.Eta;
import io.lineup.core.model.EtaEstimator;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.testing.RedisServerExtension;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ETAs read through the engine, on real Redis and the real scripts, against the moment each job was
 * actually leased. Time is a {@link ManualClock}: a consumer that serves a steady number of jobs
 * per second leases one job within the rate limit, acks it and moves the clock by one step, so the
 * consumer's true rate is exact and a minute of service takes a few seconds.
 */
class EtaAccuracyTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

  private static RedisClient rawClient;
  private static StatefulRedisConnection<String, String> raw;

  @BeforeAll
  static void connectRaw() {
    rawClient = RedisClient.create(redis.uri());
    raw = rawClient.connect(StringCodec.UTF8);
  }

  @AfterAll
  static void closeRaw() {
    raw.close();
    rawClient.shutdown();
  }

  /** One ETA read at {@code readAt} for the job {@code id}, which was at {@code position}. */
  record Reading(String id, long position, Instant readAt, Eta eta) {}

  /** A queue, its jobs, and a consumer that serves them at an exact rate on the manual clock. */
  static final class Line {
    final Lineup lineup;
    final QueueName queue = aFreshQueue();
    final ManualClock clock;
    final Map<String, Instant> leasedAt = new HashMap<>();

    Line(Lineup lineup, ManualClock clock, int jobs, QueueSettings settings) {
      this.lineup = lineup;
      this.clock = clock;
      if (!settings.equals(QueueSettings.builder().build())) {
        lineup.configure(queue, settings);
      }
      List<NewJob> batch = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        batch.add(aJob("job " + i));
        if (batch.size() == 1_000 || i == jobs - 1) {
          lineup.publishAll(queue, batch);
          batch = new ArrayList<>();
        }
      }
    }

    /** Serves {@code perSecond} jobs a second for {@code time}: lease one, ack it, step. */
    void serve(int perSecond, Duration time) {
      long step = 1000 / perSecond;
      for (long elapsed = 0; elapsed < time.toMillis(); elapsed += step) {
        for (LeasedJob job : lineup.lease(queue, 1, Duration.ZERO).jobs()) {
          leasedAt.put(job.id(), job.leasedAt());
          lineup.ack(job);
        }
        clock.advance(Duration.ofMillis(step));
      }
    }

    /** Serves at {@code perSecond} until every job read has been leased. */
    void serveUntilLeased(int perSecond, List<Reading> readings) {
      while (!readings.stream().allMatch(r -> leasedAt.containsKey(r.id()))) {
        serve(perSecond, Duration.ofSeconds(1));
      }
    }

    /** The ETA of the job at {@code position} now. */
    Reading read(long position) {
      String id = lineup.peek(queue, (int) position, 1).get(0).id();
      JobInfo job = lineup.get(queue, id).orElseThrow();
      assertThat(job.position()).isEqualTo(position);
      return new Reading(id, position, clock.now(), job.eta());
    }

    List<Reading> read(long... positions) {
      List<Reading> readings = new ArrayList<>();
      for (long position : positions) {
        readings.add(read(position));
      }
      return readings;
    }

    /** The actual wait of a reading's job: from the reading to its lease. */
    Duration actualWait(Reading reading) {
      return Duration.between(reading.readAt(), leasedAt.get(reading.id()));
    }

    /** |ETA − actual| ÷ actual. */
    double error(Reading reading) {
      double actual = actualWait(reading).toMillis();
      return Math.abs(reading.eta().point().toMillis() - actual) / actual;
    }
  }

  private static Lineup anEngineOn(ManualClock clock) {
    return Fixtures.anEngine(redis, options -> options.timeSource(clock));
  }

  @Test
  void atASteadyRateTheEtasAreWithinTenPercentFromFiveSecondsOnAndTwentyFiveAtTwo() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 5_000, QueueSettings.builder().rateLimit(100).build());
      Map<Integer, List<Reading>> readingsAt = new HashMap<>();
      int elapsed = 0;
      for (int second : new int[] {2, 5, 10, 30}) {
        line.serve(100, Duration.ofSeconds(second - elapsed));
        elapsed = second;
        readingsAt.put(second, line.read(100, 500, 1_500));
      }
      List<Reading> all = readingsAt.values().stream().flatMap(List::stream).toList();
      line.serveUntilLeased(100, all);

      readingsAt.forEach((second, readings) -> {
        double allowed = second < 5 ? 0.25 : 0.10;
        for (Reading reading : readings) {
          assertThat(line.error(reading))
              .as(
                  "at %d s, position %d: ETA %s, waited %s",
                  second, reading.position(), reading.eta(), line.actualWait(reading))
              .isLessThanOrEqualTo(allowed);
          assertThat(line.actualWait(reading))
              .as("inside the band %s", reading.eta())
              .isBetween(reading.eta().low(), reading.eta().high());
        }
      });
    }
  }

  @Test
  void tenSecondsAfterTheRateHalvesTheEtasAreWithinFifteenPercent() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 5_000, QueueSettings.builder().rateLimit(100).build());
      line.serve(100, Duration.ofSeconds(30));
      // The consumers slow down by themselves; the limit stays at 100 per second.
      line.serve(50, Duration.ofSeconds(10));
      List<Reading> readings = line.read(100, 300, 500);
      line.serveUntilLeased(50, readings);

      for (Reading reading : readings) {
        assertThat(line.error(reading))
            .as(
                "position %d: ETA %s, waited %s",
                reading.position(), reading.eta(), line.actualWait(reading))
            .isLessThanOrEqualTo(0.15);
      }
    }
  }

  @Test
  void aPausedQueueHasNoEtaAndResumedItHasAnAccurateOneAgainWithinFiveSeconds() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 3_000, QueueSettings.builder().rateLimit(100).build());
      line.serve(100, Duration.ofSeconds(10));
      assertThat(line.read(100).eta()).as("while served").isNotNull();

      lineup.pause(line.queue);
      line.serve(100, Duration.ofSeconds(10));
      assertThat(line.read(100).eta()).as("paused").isNull();
      QueueStats paused = lineup.stats(line.queue);
      assertThat(paused.drainEta()).isNull();
      assertThat(paused.serviceRate()).isZero();

      lineup.resume(line.queue);
      line.serve(100, Duration.ofSeconds(5));
      List<Reading> readings = line.read(100, 500);
      line.serveUntilLeased(100, readings);
      for (Reading reading : readings) {
        assertThat(reading.eta()).as("5 s after resuming").isNotNull();
        assertThat(line.error(reading)).as(reading.toString()).isLessThanOrEqualTo(0.10);
      }
    }
  }

  @Test
  void aLoweredRateLimitBoundsTheEtaAtOnce() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 2_000, QueueSettings.builder().rateLimit(100).build());
      line.serve(100, Duration.ofSeconds(10));
      Reading before = line.read(399);
      assertThat(before.eta().point()).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(4));

      lineup.configure(line.queue, QueueSettings.builder().rateLimit(20).build());

      // The consumers try as before; the limit lets 20 through a second.
      Reading after = line.read(399);
      assertThat(lineup.stats(line.queue).serviceRate()).isEqualTo(20);
      line.serveUntilLeased(100, List.of(after));
      assertThat(line.actualWait(after)).isBetween(Duration.ofSeconds(19), Duration.ofSeconds(20));
      assertThat(line.error(after)).as(after.toString()).isLessThanOrEqualTo(0.01);
    }
  }

  @Test
  void aConcurrencyLimitLoweredBelowTheJobsLeasedSlowsTheEtaInProportion() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 2_000, QueueSettings.builder().build());
      line.serve(100, Duration.ofSeconds(10));
      assertThat(lineup.lease(line.queue, 10, Duration.ZERO).jobs()).hasSize(10);
      assertThat(line.read(99).eta().point()).isEqualTo(Duration.ofSeconds(1));

      lineup.configure(line.queue, QueueSettings.builder().concurrencyLimit(5).build());

      assertThat(line.read(99).eta().point()).isEqualTo(Duration.ofSeconds(2));
    }
  }

  @Test
  void beforeAnythingIsServedOnlyAnExpectedServiceTimeGivesAnEta() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line =
          new Line(
              lineup,
              clock,
              200,
              QueueSettings.builder().rateLimit(10).concurrencyLimit(4).build());
      assertThat(line.read(9).eta()).as("a rate limit alone says nothing of the service").isNull();
      assertThat(lineup.stats(line.queue).drainEta()).isNull();

      lineup.configure(
          line.queue, QueueSettings.builder().expectedServiceTime(Duration.ofSeconds(2)).build());

      // Four jobs at once, two seconds each: two jobs a second.
      Eta eta = line.read(9).eta();
      assertThat(eta.point()).isEqualTo(Duration.ofSeconds(5));
      assertThat(eta.low()).isEqualTo(Duration.ofMillis(1_500));
      assertThat(eta.high()).isEqualTo(Duration.ofSeconds(11));
      QueueStats stats = lineup.stats(line.queue);
      assertThat(stats.serviceRate()).isEqualTo(2);
      assertThat(stats.drainEta().point()).isEqualTo(Duration.ofSeconds(100));
      assertThat(stats.settings().expectedServiceTime()).isEqualTo(Duration.ofSeconds(2));

      line.serve(5, Duration.ofSeconds(5));
      assertThat(lineup.stats(line.queue).serviceRate()).as("measured now").isEqualTo(5);
      assertThat(line.read(9).eta().point()).isEqualTo(Duration.ofSeconds(2));
    }
  }

  @Test
  void nackedJobsCountAsServedLikeAckedOnes() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 500, QueueSettings.builder().maxAttempts(1).build());
      for (int step = 0; step < 500; step++) {
        for (LeasedJob job : lineup.lease(line.queue, 1, Duration.ZERO).jobs()) {
          lineup.nack(job, "failed");
        }
        clock.advance(Duration.ofMillis(20));
      }
      assertThat(lineup.stats(line.queue).serviceRate()).isEqualTo(50);
    }
  }

  @Test
  void theCompletionCountersStayWithinTheLastMinuteWhateverTheClockDoes() {
    ManualClock clock = new ManualClock(START);
    try (Lineup lineup = anEngineOn(clock)) {
      Line line = new Line(lineup, clock, 1_000, QueueSettings.builder().build());
      String meta =
          new String(KeySpace.queueKeys(line.queue)[KeySpace.META_INDEX], StandardCharsets.UTF_8);
      // What earlier versions kept, a decaying average: dropped by the first count.
      raw.sync().hset(meta, Map.of("svc_rate", "0.5", "svc_ts", "1"));

      // One job every 700 ms for three and a half minutes: some seconds have none.
      for (int i = 0; i < 300; i++) {
        for (LeasedJob job : lineup.lease(line.queue, 1, Duration.ZERO).jobs()) {
          lineup.ack(job);
        }
        clock.advance(Duration.ofMillis(700));
      }
      long newest = counterSeconds(meta).stream().max(Long::compare).orElseThrow();
      assertThat(newest).isBetween(clock.now().getEpochSecond() - 1, clock.now().getEpochSecond());
      assertThat(counterSeconds(meta))
          .hasSizeLessThanOrEqualTo(EtaEstimator.WINDOW_SECONDS)
          .hasSizeGreaterThan(EtaEstimator.WINDOW_SECONDS / 2)
          .allSatisfy(second -> assertThat(second).isBetween(newest - 59, newest));
      assertThat(raw.sync().hexists(meta, "svc_rate")).isFalse();

      clock.advance(Duration.ofMinutes(-5));
      line.serve(1, Duration.ofSeconds(1));
      assertThat(counterSeconds(meta))
          .as("a count far in the past is dropped at once")
          .allSatisfy(second -> assertThat(second).isBetween(newest - 59, newest));

      clock.advance(Duration.ofMinutes(15));
      line.serve(1, Duration.ofSeconds(1));
      assertThat(counterSeconds(meta)).hasSize(1);
    }
  }

  private static List<Long> counterSeconds(String meta) {
    return raw.sync().hkeys(meta).stream()
        .filter(field -> field.startsWith("done:"))
        .map(field -> Long.parseLong(field.substring("done:".length())))
        .toList();
  }
}
