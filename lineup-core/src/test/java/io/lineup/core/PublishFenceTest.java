package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.FenceMismatchException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A queue's fence: a publish bound to it is written only while the queue holds that fence, and a
 * refused one writes nothing. Runs on both topologies ({@link PublishFenceOnStandaloneTest}, {@link
 * PublishFenceOnClusterTest}).
 */
abstract class PublishFenceTest extends EngineSuite {
  Lineup lineup;

  @BeforeAll
  void connect() {
    lineup = anEngine();
  }

  @AfterAll
  void close() {
    lineup.close();
  }

  @Test
  void aPublishBoundToTheQueuesFenceIsWritten() {
    QueueName queue = aFreshQueue();
    lineup.setFence(queue, 7);

    PublishResult published = lineup.publishFenced(queue, aJob("in"), 7);

    assertThat(published.created()).isTrue();
    assertThat(published.state()).isEqualTo(JobState.READY);
    assertThat(published.position()).isZero();
    assertThat(lineup.fence(queue)).hasValue(7);
    assertThat(lineup.stats(queue).ready()).isEqualTo(1);
  }

  @Test
  void aPublishBoundToAnotherFenceWritesNothingAndNamesTheQueuesFence() {
    QueueName queue = aFreshQueue();
    lineup.setFence(queue, 7);
    NewJob job = aJob("stale").id("stale-1").uniqueKey("once", Duration.ofMinutes(5));

    assertThatThrownBy(() -> lineup.publishFenced(queue, job, 6))
        .isInstanceOfSatisfying(
            FenceMismatchException.class,
            e -> {
              assertThat(e.queue()).isEqualTo(queue);
              assertThat(e.expected()).isEqualTo(6);
              assertThat(e.current()).hasValue(7);
            });

    assertNothingWritten(queue);
    assertThat(lineup.exists(queue, "stale-1")).isFalse();
    // Its unique key was not locked either: the same key is free for the next publish.
    PublishResult next =
        lineup.publish(queue, aJob("next").uniqueKey("once", Duration.ofMinutes(5)));
    assertThat(next.created()).isTrue();
  }

  @Test
  void aPublishBoundToAFenceOnAQueueWithoutOneWritesNothing() {
    QueueName queue = aFreshQueue();

    assertThatThrownBy(() -> lineup.publishFenced(queue, aJob("early"), 0))
        .isInstanceOfSatisfying(
            FenceMismatchException.class, e -> assertThat(e.current()).isEmpty());

    assertNothingWritten(queue);
    assertThat(lineup.fence(queue)).isEmpty();
  }

  @Test
  void aPublishBoundToNoFenceIsWrittenWhateverTheQueuesFence() {
    QueueName queue = aFreshQueue();
    lineup.setFence(queue, 3);

    assertThat(lineup.publish(queue, aJob("free")).created()).isTrue();
    assertThat(lineup.publishAll(queue, List.of(aJob("a"), aJob("b")))).hasSize(2);

    assertThat(lineup.stats(queue).ready()).isEqualTo(3);
  }

  @Test
  void aBatchBoundToAStaleFenceWritesNoneOfItsJobsAndTheSameBatchOnTheFenceWritesAll() {
    QueueName queue = aFreshQueue();
    lineup.setFence(queue, 1);
    lineup.setFence(queue, 2);
    List<NewJob> batch =
        List.of(
            aJob("generated"),
            aJob("given").id("given-1"),
            aJob("unique").uniqueKey("u-1", Duration.ofMinutes(5)),
            aDelayedJob("later", Duration.ofMinutes(30)),
            aJob("high").priority(10));

    assertThatThrownBy(() -> lineup.publishAllFenced(queue, batch, 1))
        .isInstanceOfSatisfying(
            FenceMismatchException.class, e -> assertThat(e.current()).hasValue(2));
    assertNothingWritten(queue);

    List<PublishResult> written = lineup.publishAllFenced(queue, batch, 2);
    assertThat(written).hasSize(5).allSatisfy(result -> assertThat(result.created()).isTrue());
    QueueStats stats = lineup.stats(queue);
    assertThat(stats.ready()).isEqualTo(4);
    assertThat(stats.delayed()).isEqualTo(1);
  }

  @Test
  void concurrentPublishesBoundToDifferentFencesAreDecidedEachByItsOwn() throws Exception {
    QueueName queue = aFreshQueue();
    lineup.setFence(queue, 5);
    List<Future<Boolean>> answers = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 40; i++) {
        long fence = i % 2 == 0 ? 5 : 4;
        String text = "job " + i;
        answers.add(
            threads.submit(() -> {
              try {
                return lineup.publishFenced(queue, aJob(text), fence).created();
              } catch (FenceMismatchException e) {
                return false;
              }
            }));
      }
    }
    int written = 0;
    for (int i = 0; i < answers.size(); i++) {
      boolean created = answers.get(i).get();
      assertThat(created).as("job %d", i).isEqualTo(i % 2 == 0);
      written += created ? 1 : 0;
    }
    assertThat(written).isEqualTo(20);
    assertThat(lineup.stats(queue).ready()).isEqualTo(20);
  }

  @Test
  void settingAFenceOnlyWhenAbsentLeavesAFenceSetBefore() {
    QueueName queue = aFreshQueue();

    assertThat(lineup.setFenceIfAbsent(queue, 1)).isTrue();
    lineup.setFence(queue, 0);
    assertThat(lineup.setFenceIfAbsent(queue, 1)).isFalse();

    assertThat(lineup.fence(queue)).isEqualTo(OptionalLong.of(0));
    assertThatThrownBy(() -> lineup.publishFenced(queue, aJob("adopted"), 1))
        .isInstanceOf(FenceMismatchException.class);
  }

  @Test
  void aNegativeFenceIsRefusedBeforeAnythingIsWritten() {
    QueueName queue = aFreshQueue();

    assertThatThrownBy(() -> lineup.setFence(queue, -1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> lineup.publishFenced(queue, aJob("x"), -2))
        .isInstanceOf(InvalidArgumentException.class);

    assertThat(lineup.fence(queue)).isEmpty();
    assertNothingWritten(queue);
  }

  private void assertNothingWritten(QueueName queue) {
    QueueStats stats = lineup.stats(queue);
    assertThat(stats.ready()).isZero();
    assertThat(stats.delayed()).isZero();
    assertThat(stats.counters().getOrDefault("published", 0L)).isZero();
    assertThat(lineup.events(queue, null, 10)).isEmpty();
  }
}
