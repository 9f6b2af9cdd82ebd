package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.core.model.QueueSettings;
import io.lineup.core.model.QueueStats;
import io.lineup.core.model.RedisOutOfMemoryException;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Redis at its memory limit ({@code maxmemory}, policy {@code noeviction}) refuses publishes with
 * a typed failure and keeps what it had, while consumers go on and free memory.
 */
class RedisOutOfMemoryTest {
  private static final byte[] PAYLOAD = new byte[16 * 1024];

  @Test
  void publishesAtTheMemoryLimitFailAsOutOfMemoryAndNothingIsHalfWritten() throws IOException {
    try (RedisProcess redis =
            RedisProcess.builder().setting("maxmemory-policy", "noeviction").build().start();
        Lineup lineup =
            Lineup.connect(LineupOptions.builder(redis.uri()).maintenance(false).build())) {
      QueueName queue = aFreshQueue();
      lineup.publish(queue, NewJob.ofText("warm-up"));
      limitMemoryToWhatIsUsedPlus(redis, 256 * 1024);

      int published = 1 + publishPairsUntilRefused(lineup, queue);

      assertThat(lineup.stats(queue).ready())
          .as("every job published before the refusal is there, none of the refused batch")
          .isEqualTo(published);
      assertThat((long) lineup.stats(queue).counters().get("published"))
          .as("the refused batch left no trace in the counters either")
          .isEqualTo((long) published);

      redis.command("CONFIG SET maxmemory 0");
      assertThat(lineup.publish(queue, NewJob.ofText("after")).created()).isTrue();
      assertThat(lineup.lease(queue, 1, Duration.ZERO).jobs()).hasSize(1);
    }
  }

  @Test
  void consumersGoOnAtTheMemoryLimitAndFreeMemorySoPublishesResume() throws IOException {
    try (RedisProcess redis =
            RedisProcess.builder().setting("maxmemory-policy", "noeviction").build().start();
        Lineup lineup =
            Lineup.connect(LineupOptions.builder(redis.uri()).maintenance(false).build())) {
      QueueName queue = aFreshQueue();
      // Finished records go at once, so every ack gives its memory back.
      lineup.configure(queue, QueueSettings.builder().retention(Duration.ZERO).build());
      lineup.publish(queue, NewJob.ofText("due-soon").delay(Duration.ofMillis(1)));
      lineup.publish(queue, NewJob.ofText("short-lease").timeToRun(Duration.ofMillis(100)));
      LeasedJob abandoned = lineup.lease(queue, 1, Duration.ZERO).jobs().get(0);
      limitMemoryToWhatIsUsedPlus(redis, 256 * 1024);
      int published = publishPairsUntilRefused(lineup, queue);
      assertThat(published)
          .as("enough jobs fitted before the limit that consuming them frees more than 64 KiB")
          .isGreaterThanOrEqualTo(10);
      waitPastTheLease(abandoned);

      // The lease promotes the due delayed job and reclaims the expired lease (back to its place in
      // the line, where this lease takes it), at the limit.
      List<LeasedJob> leased = new ArrayList<>(lineup.lease(queue, 5, Duration.ZERO).jobs());
      assertThat(leased).as("leases work at the memory limit").hasSize(5);
      // Its retry is an hour away, so that the consuming below, however slow, never leases it.
      LeasedJob failed = leased.get(0);
      lineup.nack(
          failed.queue(), failed.id(), failed.token(), "failed at the limit", Duration.ofHours(1));
      lineup.extend(leased.get(1));
      lineup.release(leased.get(2));
      for (LeasedJob job : leased.subList(1, 5)) {
        if (job != leased.get(2)) {
          lineup.ack(job);
        }
      }
      // The acks above gave some memory back, and whether one more job fits in it depends on how
      // much buffer Redis keeps for this client. The limit goes below what is used now, so that
      // only the consuming below can make room.
      limitMemoryToWhatIsUsedPlus(redis, -64 * 1024);
      assertThatThrownBy(() -> lineup.publish(queue, NewJob.of(PAYLOAD)))
          .as("at the limit again")
          .isInstanceOf(RedisOutOfMemoryException.class);

      int consumed = 3;
      while (true) {
        List<LeasedJob> batch = lineup.lease(queue, 10, Duration.ZERO).jobs();
        if (batch.isEmpty()) {
          break;
        }
        batch.forEach(lineup::ack);
        consumed += batch.size();
      }
      QueueStats after = lineup.stats(queue);
      assertThat(after.delayed()).as("the nacked job waits for its retry").isEqualTo(1);
      assertThat(consumed + after.delayed())
          .as("every job published, the promoted and the reclaimed one are accounted for")
          .isEqualTo(published + 2);
      assertThat(lineup.publish(queue, NewJob.of(PAYLOAD)).created())
          .as("consuming freed the memory: publishes resume")
          .isTrue();
    }
  }

  private static int publishPairsUntilRefused(Lineup lineup, QueueName queue) {
    int published = 0;
    for (int i = 0; i < 400; i++) {
      try {
        lineup.publishAll(queue, List.of(NewJob.of(PAYLOAD), NewJob.of(PAYLOAD)));
        published += 2;
      } catch (RedisOutOfMemoryException refused) {
        return published;
      }
    }
    throw new AssertionError("no publish was refused after " + published + " jobs");
  }

  private static void waitPastTheLease(LeasedJob job) {
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> java.time.Instant.now().isAfter(job.leaseDeadline().plusMillis(20)));
  }

  private static void limitMemoryToWhatIsUsedPlus(RedisProcess redis, long bytes)
      throws IOException {
    redis.command("CONFIG SET maxmemory " + (usedMemory(redis) + bytes));
  }

  private static long usedMemory(RedisProcess redis) throws IOException {
    for (String line : redis.command("INFO memory").split("\r?\n")) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring("used_memory:".length()).trim());
      }
    }
    throw new AssertionError("no used_memory in INFO");
  }
}
