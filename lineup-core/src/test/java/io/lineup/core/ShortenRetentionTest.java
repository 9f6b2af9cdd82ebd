package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobState;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A finished job's record can be made to go a grace after now instead of at the end of the queue's
 * retention window; nothing else is touched.
 */
abstract class ShortenRetentionTest extends EngineSuite {
  private static final Duration GRACE = Duration.ofMinutes(1);

  // Set anew before each test: a suite keeps one instance for all its tests.
  private ManualClock clock;
  private QueueName queue;
  private Lineup lineup;

  @BeforeEach
  void connect() {
    clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    queue = aFreshQueue();
    // No background sweeps here: sweepUntil runs one round when the test wants it.
    lineup = anEngine(options -> options.timeSource(clock).maintenance(false));
    lineup.configure(queue, QueueSettings.builder().retention(Duration.ofHours(1)).build());
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  /**
   * Runs the retention sweep at the clock's time: an engine with its background loops on sweeps
   * every registered queue once as soon as it starts, so no test waits for the sweep's interval.
   */
  private void sweepUntil(Callable<Boolean> condition) {
    try (Lineup sweeper = anEngine(options -> options.timeSource(clock))) {
      await().atMost(Duration.ofSeconds(10)).until(condition);
    }
  }

  private String anAckedJob(String payload) {
    String id = lineup.publish(queue, aJob(payload)).id();
    LeasedJob job = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    assertThat(job.id()).isEqualTo(id);
    lineup.ack(job);
    return id;
  }

  @Test
  void aShortenedRecordGoesOnceTheGraceHasPassedWhileAnotherStaysForTheWholeWindow() {
    String read = anAckedJob("read by its caller");
    String unread = anAckedJob("never read");

    assertThat(lineup.shortenRetention(queue, read, GRACE)).isTrue();
    assertThat(lineup.get(queue, read))
        .hasValueSatisfying(info -> assertThat(info.state()).isEqualTo(JobState.DONE));

    clock.advance(GRACE.plusSeconds(1));
    sweepUntil(() -> !lineup.exists(queue, read));
    assertThat(lineup.get(queue, unread))
        .hasValueSatisfying(info -> assertThat(info.state()).isEqualTo(JobState.DONE));
    assertThat(lineup.stats(queue).finished()).isEqualTo(1);
  }

  @Test
  void aRecordIsStillThereUntilTheGraceHasPassed() {
    String read = anAckedJob("read by its caller");
    String zeroGrace = anAckedJob("read and done with");
    lineup.shortenRetention(queue, read, GRACE);
    lineup.shortenRetention(queue, zeroGrace, Duration.ZERO);

    clock.advance(GRACE.minusSeconds(1));
    // The record with no grace going shows that a sweep ran at this time.
    sweepUntil(() -> !lineup.exists(queue, zeroGrace));
    assertThat(lineup.exists(queue, read)).isTrue();
  }

  @Test
  void aCancelledJobsTombstoneCanBeShortenedToo() {
    String id = lineup.publish(queue, aJob("not needed")).id();
    lineup.cancel(queue, id);

    assertThat(lineup.shortenRetention(queue, id, Duration.ZERO)).isTrue();

    sweepUntil(() -> !lineup.exists(queue, id));
  }

  @Test
  void aGraceLongerThanWhatIsLeftOfTheWindowNeverKeepsARecordLonger() {
    lineup.configure(queue, QueueSettings.builder().retention(Duration.ofSeconds(30)).build());
    String id = anAckedJob("soon gone anyway");

    assertThat(lineup.shortenRetention(queue, id, Duration.ofHours(2))).isTrue();

    clock.advance(Duration.ofSeconds(31));
    sweepUntil(() -> !lineup.exists(queue, id));
  }

  @Test
  void aJobThatHasNotFinishedIsLeftAloneAndKeepsItsWholeWindowOnceItFinishes() {
    String waiting = lineup.publish(queue, aJob("still waiting")).id();
    assertThat(lineup.shortenRetention(queue, waiting, Duration.ZERO)).isFalse();
    LeasedJob leased = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
    assertThat(lineup.shortenRetention(queue, leased.id(), Duration.ZERO)).isFalse();
    assertThat(lineup.get(queue, leased.id()))
        .hasValueSatisfying(info -> assertThat(info.state()).isEqualTo(JobState.LEASED));
    lineup.ack(leased);
    String shortened = anAckedJob("shortened");
    lineup.shortenRetention(queue, shortened, Duration.ZERO);

    clock.advance(GRACE);
    sweepUntil(() -> !lineup.exists(queue, shortened));
    assertThat(lineup.exists(queue, leased.id())).isTrue();
  }

  @Test
  void anUnknownJobIsNotShortened() {
    assertThat(lineup.shortenRetention(queue, "never-published", GRACE)).isFalse();
  }

  @Test
  void aNegativeOrMissingGraceIsRefusedBeforeAnythingIsSent() {
    String id = anAckedJob("kept");

    assertThatThrownBy(() -> lineup.shortenRetention(queue, id, Duration.ofSeconds(-1)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("grace");
    assertThatThrownBy(() -> lineup.shortenRetention(queue, id, null))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("grace");
    assertThat(lineup.exists(queue, id)).isTrue();
  }
}
