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

  /** A short interval, so the window (180 readings) is 18 s and a test sees it roll. */
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
    history.sample(queue, slot - QueueHistory.SLOTS - 3);
    history.sample(queue, slot - QueueHistory.SLOTS);

    assertThat(history.samples(queue)).isEmpty();

    history.sample(queue, slot);

    assertThat(history.samples(queue)).hasSize(1);
    // Writing slot s deletes slot s - SLOTS: only the older stray reading may be left.
    assertThat(lineup.records("history:" + QueueHistory.digest(queue.toString())).all())
        .doesNotContainKey(Long.toString(slot - QueueHistory.SLOTS));
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
