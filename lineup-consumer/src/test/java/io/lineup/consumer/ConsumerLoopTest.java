package io.lineup.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ConsumerLoopTest {
  private static ConsumerOptions.Builder options() {
    return ConsumerOptions.builder().name("test").label("q");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyJobRunsOnceAndIsAckedWithItsResultNeverMoreThanConcurrencyAtOnce() throws Exception {
    FakeSource source = new FakeSource();
    for (int i = 0; i < 40; i++) {
      source.add("j" + i);
    }
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    JobHandler<FakeSource.Job> handler =
        job -> {
          most.accumulateAndGet(now.incrementAndGet(), Math::max);
          Thread.sleep(1);
          now.decrementAndGet();
          return bytes("done " + job.id());
        };
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, handler, options().concurrency(4).stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.acked).hasSize(40);
    assertThat(new String(source.acked.get("j7"), StandardCharsets.UTF_8)).isEqualTo("done j7");
    assertThat(most.get()).isLessThanOrEqualTo(4);
    assertThat(source.asked).allMatch(count -> count >= 1 && count <= 4);
    assertThat(loop.handled()).isEqualTo(40);
    assertThat(loop.leased()).isEqualTo(40);
    assertThat(loop.failed()).isZero();
  }

  @Test
  void aRunnerThatThrowsFailsItsJobWithTheError() throws Exception {
    FakeSource source = new FakeSource().add("bad");
    IllegalStateException boom = new IllegalStateException("boom");
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job -> {
              throw boom;
            },
            options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.failed).containsEntry("bad", boom);
    assertThat(source.acked).isEmpty();
    assertThat(loop.failed()).isEqualTo(1);
  }

  @Test
  void aLimitLeasesThatManyJobsAndNoMore() throws Exception {
    FakeSource source = new FakeSource().add("a", "b", "c", "d", "e");
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, job -> null, options().concurrency(2).limit(3).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.acked).containsOnlyKeys("a", "b", "c");
    assertThat(source.ready).extracting(FakeSource.Job::id).containsExactly("d", "e");
    assertThat(source.asked.stream().mapToInt(Integer::intValue).sum()).isEqualTo(3);
  }

  @Test
  void aLostLeaseInterruptsItsRunnerAndTheJobIsNotSettled() throws Exception {
    FakeSource source = new FakeSource();
    source.ready.add(new FakeSource.Job("slow", Duration.ofMillis(40)));
    source.extendFailure = job -> new FakeSource.Lost();
    CountDownLatch interrupted = new CountDownLatch(1);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job -> {
              try {
                new CountDownLatch(1).await();
              } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
              }
              return null;
            },
            options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(interrupted.getCount()).isZero();
    assertThat(source.extended).containsExactly("slow");
    assertThat(source.acked).isEmpty();
    assertThat(source.failed).isEmpty();
    assertThat(source.givenBack).isEmpty();
  }

  @Test
  void aLeaseIsExtendedAgainAfterTheSourceWasUnavailable() throws Exception {
    FakeSource source = new FakeSource();
    source.ready.add(new FakeSource.Job("long", Duration.ofMillis(60)));
    AtomicInteger beats = new AtomicInteger();
    CountDownLatch thirdBeat = new CountDownLatch(1);
    source.extendFailure =
        job -> {
          if (beats.incrementAndGet() >= 3) {
            thirdBeat.countDown();
          }
          return beats.get() == 1 ? new FakeSource.Down() : null;
        };
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job -> {
              thirdBeat.await();
              return null;
            },
            options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.extended).hasSizeGreaterThanOrEqualTo(3);
    assertThat(source.acked).containsOnlyKeys("long");
  }

  @Test
  void closeGivesBackTheJobsWhoseRunnersOutliveTheGrace() throws Exception {
    FakeSource source = new FakeSource().add("stuck");
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch interrupted = new CountDownLatch(1);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job -> {
              started.countDown();
              try {
                new CountDownLatch(1).await();
              } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
              }
              return null;
            },
            options().shutdownGrace(Duration.ZERO).build());
    loop.start();
    started.await();
    loop.close();

    assertThat(source.givenBack).containsExactly("stuck");
    interrupted.await();
    assertThat(source.acked).isEmpty();
    assertThat(source.failed).isEmpty();
  }

  @Test
  void aFailedLeaseCallIsTriedAgain() throws Exception {
    FakeSource source = new FakeSource().add("a");
    source.leaseFailuresLeft.set(2);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, job -> null, options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.asked).hasSizeGreaterThanOrEqualTo(3);
    assertThat(source.acked).containsOnlyKeys("a");
  }

  @Test
  void withStopOnLeaseErrorAFailedLeaseCallEndsTheLoopWithItsError() throws Exception {
    FakeSource source = new FakeSource().add("a");
    source.leaseFailuresLeft.set(1);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, job -> null, options().stopOnLeaseError(true).build());
    loop.start();

    assertThatThrownBy(loop::awaitEnd).isInstanceOf(FakeSource.Down.class);
    loop.close();
    assertThat(source.acked).isEmpty();
    assertThat(source.ready).extracting(FakeSource.Job::id).containsExactly("a");
  }

  @Test
  void anAckIsRetriedWhileTheSourceIsUnavailable() throws Exception {
    FakeSource source = new FakeSource().add("a");
    source.ackFailuresLeft.set(2);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, job -> bytes("ok"), options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.acked).containsOnlyKeys("a");
  }

  @Test
  void anEmptyAnswerWithAdviceWaitsAsAdvisedAndLeasesAgainRatherThanStop() throws Exception {
    FakeSource source = new FakeSource().add("a");
    source.advicesLeft.set(2);
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(source, job -> null, options().stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.advicesSeen).containsExactly(Duration.ofMillis(1), Duration.ofMillis(1));
    assertThat(source.acked).containsOnlyKeys("a");
  }

  @Test
  void withTwoCallsInFlightEveryJobRunsOnceAndNoMoreThanTwoCallsAreOnTheirWay() throws Exception {
    FakeSource source = new FakeSource();
    source.async = true;
    for (int i = 0; i < 200; i++) {
      source.add("j" + i);
    }
    AtomicInteger now = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    ConsumerLoop<FakeSource.Job> loop =
        new ConsumerLoop<>(
            source,
            job -> {
              most.accumulateAndGet(now.incrementAndGet(), Math::max);
              Thread.yield();
              now.decrementAndGet();
              return null;
            },
            options().concurrency(8).callsInFlight(2).stopWhenEmpty(true).build());
    loop.start().awaitEnd();
    loop.close();

    assertThat(source.acked).hasSize(200);
    assertThat(loop.handled()).isEqualTo(200);
    assertThat(source.mostOutstanding.get()).isLessThanOrEqualTo(2);
    assertThat(most.get()).isLessThanOrEqualTo(8);
  }

  @Test
  void optionsRefuseWhatTheLoopCannotRun() {
    assertThatThrownBy(() -> options().concurrency(0).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> options().callsInFlight(3).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> options().limit(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
  }
}
