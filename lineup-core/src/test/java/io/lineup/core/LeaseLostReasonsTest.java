package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.Backoff;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.LeaseLostException.Reason;
import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A settle with a token that no longer holds its job says what happened to that lease. */
abstract class LeaseLostReasonsTest extends EngineSuite {

  // Set anew before each test: a suite keeps one instance for all its tests.
  private ManualClock clock;
  private QueueName queue;
  private Lineup lineup;

  @BeforeEach
  void connect() {
    clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));
    queue = aFreshQueue();
    lineup = anEngine(options -> options.timeSource(clock).maintenance(false));
    // Retries are due at once, so a nacked job can be leased again without moving the clock.
    lineup.configure(
        queue, QueueSettings.builder().backoff(fixedBackoff(Duration.ZERO)).maxAttempts(5).build());
  }

  @AfterEach
  void close() {
    lineup.close();
  }

  private static Backoff fixedBackoff(Duration wait) {
    return new Backoff(Backoff.Kind.FIXED, wait, wait, 0);
  }

  private LeasedJob leaseOne() {
    return lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
  }

  private LeasedJob aLeasedJob() {
    lineup.publish(queue, aJob("render invoice").timeToRun(Duration.ofSeconds(10)));
    return leaseOne();
  }

  private static void assertLost(ThrowingCallable settle, Reason reason) {
    assertThatThrownBy(settle)
        .isInstanceOfSatisfying(
            LeaseLostException.class, lost -> assertThat(lost.reason()).isEqualTo(reason));
  }

  @Test
  void aSecondNackOfTheSameLeaseSaysItWasNacked() {
    LeasedJob job = aLeasedJob();
    lineup.nack(job, "timeout");

    assertLost(() -> lineup.nack(job, "timeout again"), Reason.NACKED);
  }

  @Test
  void theOldTokenAfterANackAndANewLeaseSaysItWasNacked() {
    LeasedJob first = aLeasedJob();
    lineup.nack(first, "timeout");
    LeasedJob second = leaseOne();
    assertThat(second.id()).isEqualTo(first.id());

    assertLost(() -> lineup.ack(first), Reason.NACKED);
    lineup.ack(second);
  }

  @Test
  void anAckWithATokenThatNeverHeldTheJobSaysTheTokenIsWrong() {
    LeasedJob job = aLeasedJob();

    assertLost(() -> lineup.ack(queue, job.id(), "not-a-token.1", null), Reason.WRONG_TOKEN);
    lineup.ack(job);
  }

  @Test
  void aLeaseWhoseTimeToRunPassedSaysExpiredThenLeasedAgainOnceSomeoneElseHoldsIt() {
    LeasedJob first = aLeasedJob();
    clock.advance(Duration.ofSeconds(11));
    lineup.stats(queue); // nothing reclaims until a lease or a sweep runs
    assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).hasSize(1);

    assertLost(() -> lineup.ack(first), Reason.LEASED_AGAIN);
  }

  @Test
  void aLeaseWhoseTimeToRunPassedAndThatWaitsAgainSaysItsLeaseExpired() {
    LeasedJob job = aLeasedJob();
    // A paused queue's lease still reclaims the expired lease, and leaves the job waiting in line.
    lineup.configure(queue, QueueSettings.builder().paused(true).build());
    clock.advance(Duration.ofSeconds(11));
    assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).as("reclaimed, paused").isEmpty();

    assertLost(() -> lineup.extend(job), Reason.EXPIRED_LEASE);
  }

  @Test
  void aReleasedLeaseSaysItWasReleased() {
    LeasedJob job = aLeasedJob();
    lineup.release(job);

    assertLost(() -> lineup.ack(job), Reason.RELEASED);
  }

  @Test
  void aNackAfterTheAckSaysTheJobWasAcked() {
    LeasedJob job = aLeasedJob();
    lineup.ack(job);

    assertLost(() -> lineup.nack(job, "too late"), Reason.ACKED);
    lineup.ack(job); // repeating the ack of the same lease succeeds
  }

  @Test
  void anAckOfACancelledJobSaysItWasCancelled() {
    LeasedJob job = aLeasedJob();
    lineup.cancel(queue, job.id());

    assertLost(() -> lineup.ack(job), Reason.CANCELLED);
  }
}
