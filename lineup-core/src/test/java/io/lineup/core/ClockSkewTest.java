package io.lineup.core;

import static io.lineup.core.Fixtures.aDelayedJob;
import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;

import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.Leases;
import io.lineup.core.model.PublishResult;
import io.lineup.core.model.QueueName;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Due times come from one clock, so engines whose host clocks disagree still agree on them. Runs on
 * both topologies ({@link ClockSkewOnStandaloneTest}, {@link ClockSkewOnClusterTest}).
 */
abstract class ClockSkewTest extends EngineSuite {
  @Test
  void twoEnginesWhoseHostClocksAreFiveSecondsApartReleaseDelayedJobsOnTime() {
    QueueName queue = aFreshQueue();
    Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(5));
    try (Lineup fast = anEngine(options -> options.hostClock(ahead));
        Lineup exact = anEngine()) {
      for (Lineup[] pair : new Lineup[][] {{fast, exact}, {exact, fast}}) {
        Lineup producer = pair[0];
        Lineup consumer = pair[1];
        long start = System.nanoTime();
        PublishResult published =
            producer.publish(queue, aDelayedJob("in one second", Duration.ofSeconds(1)));
        assertThat(consumer.get(queue, published.id()).orElseThrow().dueAt())
            .isEqualTo(published.dueAt());

        Leases leases = consumer.lease(queue, 1, Duration.ofSeconds(10));
        long waitedMs = Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertThat(leases.jobs()).extracting(LeasedJob::id).containsExactly(published.id());
        consumer.ack(leases.jobs().get(0));
        System.out.printf("Delay of 1000 ms across skewed hosts took %d ms%n", waitedMs);
        // A clock read from either host would be off by five seconds, one way or the other: at
        // once, or after six seconds. The upper bound leaves a busy machine four seconds of its
        // own delays (issue 49) and still tells the skew apart.
        assertThat(waitedMs).isBetween(950L, 4_900L);
      }
    }
  }
}
