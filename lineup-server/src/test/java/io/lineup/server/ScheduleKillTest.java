package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes on one Redis fire a schedule of 50 ms ticks; one is killed with SIGKILL in
 * the middle. A tick is decided and its job published by one script, so a kill leaves a tick either
 * fired (its job written, the schedule moved on) or not touched at all, for the survivor to fire:
 * every tick of the run makes exactly one job.
 */
class ScheduleKillTest {
  static final long EVERY_MS = 50;
  static final long RUN_MS = 8_000;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @TempDir Path folder;

  @Test
  void aServerKilledWhileItsScheduleTicksLeavesEveryTickWithExactlyOneJob() {
    try (MainProcess doomed = MainProcess.serverOn(redis.uri(), folder.resolve("doomed"));
        MainProcess survivor = MainProcess.serverOn(redis.uri(), folder.resolve("survivor"))) {
      Api first =
          new Api(
              doomed.awaitListening(MainProcess.START_TIMEOUT), LineupServerExtension.ADMIN_TOKEN);
      Api second =
          new Api(
              survivor.awaitListening(MainProcess.START_TIMEOUT),
              LineupServerExtension.ADMIN_TOKEN);
      String queue = "/v1/queues/faults/ticking";
      String path = queue + "/schedules/beat";
      long start = (System.currentTimeMillis() / 1_000 + 3) * 1_000;
      long end = start + RUN_MS;
      // catch_up: a machine that stalls more than a second (the missed-tick threshold) still owes
      // every tick, so the count below does not depend on how busy the machine is.
      Reply put =
          first.put(
              path,
              "{\"every_ms\": "
                  + EVERY_MS
                  + ", \"start_at\": "
                  + start
                  + ", \"end_at\": "
                  + end
                  + ", \"missed\": \"catch_up\", \"catch_up_max\": 1000, \"history_size\": 1000,"
                  + " \"job\": {\"payload\": {\"beat\": true}}}");
      assertThat(put.status()).as(put.toString()).isEqualTo(201);
      // The first tick: start_at, or the first tick after the put when a busy machine took longer
      // than that to put it (ticks before a schedule exists are not owed).
      long firstTick = put.json().path("next_tick_at").asLong();
      assertThat(firstTick).isBetween(start, end);

      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> second.get(path).json().path("runs").asLong() >= 30);
      doomed.kill();
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> second.get(path).json().path("state").asText().equals("ended"));
      // The last ticks were fired ahead of their time, their jobs due at their ticks.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> second.get(queue).json().at("/counts/delayed").asLong() == 0);

      Set<Long> expected = new TreeSet<>();
      for (long tick = firstTick; tick <= end; tick += EVERY_MS) {
        expected.add(tick);
      }
      JsonNode schedule = second.get(path).json();
      assertThat(schedule.path("runs").asLong()).isEqualTo(expected.size());
      List<Long> published = new ArrayList<>();
      for (JsonNode run : schedule.path("history")) {
        assertThat(run.path("outcome").asText()).as(run.toString()).isEqualTo("published");
        published.add(run.path("tick_at").asLong());
      }
      assertThat(published).as("one run per tick").hasSize(expected.size());
      assertThat(new TreeSet<>(published)).as("every tick, none twice").isEqualTo(expected);

      List<String> jobIds = new ArrayList<>();
      while (true) {
        Reply leased = second.post(queue + "/leases", "{\"count\": 1000, \"wait_ms\": 0}");
        if (leased.status() == 204 || leased.json().path("jobs").isEmpty()) {
          break;
        }
        leased.json().path("jobs").forEach(j -> jobIds.add(j.path("id").asText()));
      }
      assertThat(jobIds).as("one job per tick in the queue").hasSize(expected.size());
      Set<Long> jobTicks = new HashSet<>();
      for (String id : jobIds) {
        assertThat(id).startsWith("sched:beat:");
        jobTicks.add(Long.parseLong(id.substring("sched:beat:".length())));
      }
      assertThat(new TreeSet<>(jobTicks)).isEqualTo(expected);
    }
  }
}
