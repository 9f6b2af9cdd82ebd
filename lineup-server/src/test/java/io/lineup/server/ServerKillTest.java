package io.lineup.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.testing.RedisServerExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two server processes on one Redis; one is killed with SIGKILL in the middle of a run. Leases it
 * made whose answers never reached a worker come back after their time-to-run and are consumed
 * through the other: nothing is lost.
 */
class ServerKillTest {
  static final int JOBS = 2_000;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.withDefaults();

  @TempDir Path folder;

  private MainProcess instance(String name) {
    return MainProcess.serverOn(redis.uri(), folder.resolve(name));
  }

  @Test
  void aServerKilledMidRunLosesNoJobItsLeasesComeBackAfterTheirTimeToRun() {
    try (MainProcess doomed = instance("doomed");
        MainProcess survivor = instance("survivor")) {
      Api first =
          new Api(
              doomed.awaitListening(MainProcess.START_TIMEOUT), LineupServerExtension.ADMIN_TOKEN);
      Api second =
          new Api(
              survivor.awaitListening(MainProcess.START_TIMEOUT),
              LineupServerExtension.ADMIN_TOKEN);
      List<String> queues = List.of("kill-a", "kill-b");
      for (String queue : queues) {
        assertThat(second.patch("/v1/queues/faults/" + queue, "{\"ttr_ms\": 2000}").status())
            .isEqualTo(200);
      }
      JobLedger ledger = new JobLedger();
      try (HttpLoad load = new HttpLoad(List.of(first, second), "faults", queues, ledger)) {
        load.produce(2, JOBS, 50, 0).work(6, 20);
        await().atMost(Duration.ofMinutes(1)).until(() -> ledger.ackedCount() >= JOBS / 3);
        doomed.kill();
        await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> ledger.ackedCount() >= JOBS && leasedNow(second, queues) == 0);
        System.out.printf(
            "Server killed mid-run: %s; 503s and dropped connections: %d%n",
            ledger.summary(), load.unavailableAnswers());
      }
      assertThat(ledger.confirmedCount()).isEqualTo(JOBS);
      assertThat(ledger.neverAcked(JobLedger.Publish.PLAIN)).as("no job was lost").isEmpty();
      assertThat(leasedNow(second, queues)).as("no job stays leased").isZero();
    }
  }

  private static long leasedNow(Api api, List<String> queues) {
    long leased = 0;
    for (String queue : queues) {
      leased += api.get("/v1/queues/faults/" + queue).json().at("/counts/leased").asLong();
    }
    return leased;
  }
}
