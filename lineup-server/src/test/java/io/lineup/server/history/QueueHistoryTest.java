package io.lineup.server.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The history of queues in Redis: one reading per interval whichever instance takes it, rates
 * between readings, nothing kept beyond the window. Two {@link QueueHistory} objects on one Redis
 * stand for two server instances.
 */
class QueueHistoryTest {
  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  /** A short interval, so the 15-minute window (900 readings) is 90 s and a minute 6 s. */
  static final long INTERVAL_MS = 100;

  static Lineup lineup;

  @BeforeAll
  static void connect() {
    lineup = Lineup.connect(LineupOptions.builder(redis.uri()).build());
  }

  @AfterAll
  static void close() {
    lineup.close();
  }

  static QueueName aQueueWithJobs(int jobs) {
    QueueName queue = QueueName.of("hist", RedisServerExtension.uniqueName("q").replace(':', '-'));
    for (int i = 0; i < jobs; i++) {
      lineup.publish(queue, NewJob.ofText("{\"n\":" + i + "}"));
    }
    return queue;
  }

  static long now() {
    return System.currentTimeMillis() / INTERVAL_MS;
  }

  @Test
  void twoInstancesSamplingTheSameIntervalKeepOneReading() {
    QueueName queue = aQueueWithJobs(3);
    QueueHistory first = new QueueHistory(lineup, INTERVAL_MS);
    QueueHistory second = new QueueHistory(lineup, INTERVAL_MS);
    long slot = now();

    assertThat(first.sample(queue, slot)).isTrue();
    assertThat(second.sample(queue, slot)).isFalse();

    List<QueueSample> seenByFirst = first.samples(queue);
    assertThat(seenByFirst).hasSize(1);
    assertThat(seenByFirst.get(0).ready()).isEqualTo(3);
    assertThat(seenByFirst.get(0).published()).isEqualTo(3);
    assertThat(second.samples(queue)).isEqualTo(seenByFirst);
  }

  @Test
  void aReadingCarriesTheRatesSinceTheOneBefore() {
    QueueName queue = aQueueWithJobs(10);
    QueueHistory history = new QueueHistory(lineup, INTERVAL_MS);
    long slot = now();
    history.sample(queue, slot - 1);
    for (int i = 0; i < 25; i++) {
      lineup.publish(queue, NewJob.ofText("{}"));
    }

    history.sample(queue, slot);

    List<QueueSample> samples = history.samples(queue);
    assertThat(samples).hasSize(2);
    QueueSample before = samples.get(0);
    QueueSample after = samples.get(1);
    assertThat(before.publishedPerSecond()).isZero();
    assertThat(after.published() - before.published()).isEqualTo(25);
    double seconds = (after.at() - before.at()) / 1000.0;
    assertThat(after.publishedPerSecond())
        .isCloseTo(25 / seconds, within(0.01 + 25 / seconds / 1000));
    assertThat(after.completedPerSecond()).isZero();
  }

  @Test
  void readingsOlderThanTheWindowAreDroppedAndNotShown() {
    QueueName queue = aQueueWithJobs(1);
    QueueHistory history = new QueueHistory(lineup, INTERVAL_MS);
    long slot = now();
    history.sample(queue, slot - QueueHistory.FINE_SLOTS - 3);
    history.sample(queue, slot - QueueHistory.FINE_SLOTS);

    assertThat(history.samples(queue)).isEmpty();

    history.sample(queue, slot);

    assertThat(history.samples(queue)).hasSize(1);
    // Writing slot s deletes slot s - SLOTS: only the older stray reading may be left.
    assertThat(history.store(queue).all())
        .doesNotContainKey("s" + (slot - QueueHistory.FINE_SLOTS));
  }

  @Test
  void aMinuteReadingIsTheLastSecondOfItsMinuteWithTheMinutesMeanRates() {
    QueueName queue = aQueueWithJobs(1);
    QueueHistory history = new QueueHistory(lineup, INTERVAL_MS);
    long minute = now() / QueueHistory.SECONDS_PER_MINUTE;
    long firstOfLastMinute = (minute - 1) * QueueHistory.SECONDS_PER_MINUTE;
    history.sample(queue, firstOfLastMinute - 1); // the minute before's last second
    for (int i = 0; i < 30; i++) {
      lineup.publish(queue, NewJob.ofText("{}"));
    }
    history.sample(queue, firstOfLastMinute + 10);
    for (int i = 0; i < 30; i++) {
      lineup.publish(queue, NewJob.ofText("{}"));
    }
    history.sample(queue, firstOfLastMinute + 20);

    List<QueueSample> minutes = history.samples(queue, HistoryRange.HOUR_1);
    assertThat(minutes).hasSize(2);
    QueueSample before = minutes.get(0);
    QueueSample last = minutes.get(1);
    assertThat(last.published()).as("the minute's last reading").isEqualTo(61);
    assertThat(last.ready()).isEqualTo(61);
    double seconds = (last.at() - before.at()) / 1000.0;
    assertThat(last.publishedPerSecond())
        .as("the mean over the minute, not the last second's rate")
        .isCloseTo(60 / seconds, within(0.01 + 60 / seconds / 1000));
    assertThat(history.samples(queue, HistoryRange.HOURS_24)).hasSize(2);
  }

  @Test
  void twoRunningSamplersStoreOneReadingPerSecond() {
    QueueName queue = aQueueWithJobs(2);
    try (QueueHistory one = new QueueHistory(lineup, INTERVAL_MS);
        QueueHistory two = new QueueHistory(lineup, INTERVAL_MS)) {
      one.start();
      two.start();
      await().atMost(Duration.ofSeconds(10)).until(() -> one.samples(queue).size() >= 10);
      one.close();
      two.close();
      long seconds =
          new QueueHistory(lineup, INTERVAL_MS)
              .store(queue).all().keySet().stream().filter(field -> field.startsWith("s")).count();
      // Each second was read by one sampler only: the other skipped it (its lock was taken).
      assertThat(one.readings(queue) + two.readings(queue)).isEqualTo(seconds);
      assertThat(seconds).isGreaterThanOrEqualTo(10);
    }
  }

  @Test
  void aRangeThatIsNoneOfTheThreeIsNotOne() {
    assertThat(HistoryRange.of("15m")).isEqualTo(HistoryRange.MINUTES_15);
    assertThat(HistoryRange.of("24H")).isEqualTo(HistoryRange.HOURS_24);
    assertThat(HistoryRange.of("2h")).isNull();
  }

  @Test
  void theLatestReadingIsFoundWithinTwoIntervals() {
    QueueName queue = aQueueWithJobs(2);
    QueueHistory history = new QueueHistory(lineup, INTERVAL_MS);
    assertThat(history.latest(queue)).isEmpty();

    history.sample(queue, now());

    assertThat(history.latest(queue)).hasValueSatisfying(s -> assertThat(s.ready()).isEqualTo(2));
  }

  @Test
  void aRunningSamplerRecordsEveryQueueByItself() {
    QueueName queue = aQueueWithJobs(4);
    try (QueueHistory history = new QueueHistory(lineup, INTERVAL_MS)) {
      history.start();

      await().atMost(Duration.ofSeconds(10)).until(() -> history.samples(queue).size() >= 3);
      assertThat(history.samples(queue)).allSatisfy(s -> assertThat(s.ready()).isEqualTo(4));
    }
  }
}
