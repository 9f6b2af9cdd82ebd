package io.lineup.core;

import static io.lineup.core.Fixtures.aFreshQueue;
import static io.lineup.core.Fixtures.aJob;
import static io.lineup.core.Fixtures.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lineup.core.model.LeasedJob;
import io.lineup.core.model.QueueName;
import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The engine calls its scripts as Redis Functions: each script's library is loaded by its first
 * call, later calls go by FCALL, and a Redis that lost the libraries or refuses functions is served
 * the script way (EVALSHA) without a failed call.
 */
class ScriptsAsFunctionsTest {
  private static final Duration LOADED_WITHIN = Duration.ofSeconds(10);

  @Test
  void aScriptsFirstCallLoadsItsLibraryAndLaterCallsGoByFcall() throws IOException {
    try (RedisProcess redis = RedisProcess.builder().build().start();
        Lineup lineup = anEngineOn(redis.uri())) {
      QueueName queue = aFreshQueue();
      assertThat(lineup.publish(queue, aJob("first")).created()).isTrue();
      awaitLibraryOf(redis, "publish");
      long fcalls = succeeded(redis, "fcall");
      long evalshas = succeeded(redis, "evalsha");

      for (int i = 0; i < 10; i++) {
        lineup.publish(queue, aJob("job " + i));
      }

      assertThat(succeeded(redis, "fcall") - fcalls).isEqualTo(10);
      assertThat(succeeded(redis, "evalsha")).isEqualTo(evalshas);
      assertThat(lineup.stats(queue).ready()).isEqualTo(11);
    }
  }

  @Test
  void callsGoOnWhenRedisLosesTheLibrariesAndTheLibrariesComeBack() throws IOException {
    try (RedisProcess redis = RedisProcess.builder().build().start();
        Lineup lineup = anEngineOn(redis.uri())) {
      QueueName queue = aFreshQueue();
      lineup.publish(queue, aJob("before"));
      awaitLibraryOf(redis, "publish");

      assertThat(redis.command("FUNCTION FLUSH")).isEqualTo("+OK");
      assertThat(lineup.publish(queue, aJob("after")).created()).isTrue();
      awaitLibraryOf(redis, "publish");

      List<LeasedJob> jobs = lineup.lease(queue, 10, Duration.ZERO).jobs();
      assertThat(jobs).extracting(job -> text(job.payload())).containsExactly("before", "after");
    }
  }

  @Test
  void aRedisWhoseAclForbidsFunctionsIsServedTheScriptWay() throws IOException {
    try (RedisProcess redis = RedisProcess.builder().build().start()) {
      assertThat(redis.command("ACL SETUSER nofunctions on >secret ~* &* +@all -fcall -function"))
          .isEqualTo("+OK");
      String uri = "redis://nofunctions:secret@127.0.0.1:" + redis.port();
      try (Lineup lineup = anEngineOn(uri)) {
        QueueName queue = aFreshQueue();
        lineup.publish(queue, aJob("one"));
        lineup.publish(queue, aJob("two"));
        List<LeasedJob> jobs = lineup.lease(queue, 10, Duration.ZERO).jobs();
        jobs.forEach(job -> lineup.ack(queue, job.id(), job.token(), null));

        assertThat(jobs).extracting(job -> text(job.payload())).containsExactly("one", "two");
        assertThat(lineup.stats(queue).ready()).isZero();
        assertThat(redis.command("FUNCTION LIST")).isEqualTo("*0");
        assertThat(succeeded(redis, "fcall")).isZero();
        assertThat(succeeded(redis, "evalsha") + succeeded(redis, "eval")).isPositive();
      }
    }
  }

  @Test
  void callsOnTwoQueuesInTurnKeepEachQueuesRecordsToItself() throws IOException {
    try (RedisProcess redis = RedisProcess.builder().build().start();
        Lineup lineup = anEngineOn(redis.uri())) {
      QueueName first = aFreshQueue();
      QueueName second = aFreshQueue();
      lineup.publish(first, aJob("warm-up"));
      lineup.lease(first, 1, Duration.ZERO);
      awaitLibraryOf(redis, "publish");
      awaitLibraryOf(redis, "lease");

      for (int i = 0; i < 5; i++) {
        lineup.publish(first, aJob("first " + i));
        lineup.publish(second, aJob("second " + i));
      }

      for (int i = 0; i < 5; i++) {
        assertThat(text(lineup.lease(first, 1, Duration.ZERO).jobs().get(0).payload()))
            .isEqualTo("first " + i);
        assertThat(text(lineup.lease(second, 1, Duration.ZERO).jobs().get(0).payload()))
            .isEqualTo("second " + i);
      }
    }
  }

  private static Lineup anEngineOn(String uri) {
    return Lineup.connect(LineupOptions.builder(uri).maintenance(false).build());
  }

  /** Waits until the library of the named script is in Redis. */
  private static void awaitLibraryOf(RedisProcess redis, String script) {
    await()
        .atMost(LOADED_WITHIN)
        .until(
            () -> redis.command("FUNCTION LIST LIBRARYNAME lineup_" + script + "_*"), "*1"::equals);
  }

  /** Calls of a command Redis served without an error so far. */
  private static long succeeded(RedisProcess redis, String command) throws IOException {
    Matcher m =
        Pattern.compile("cmdstat_" + command + ":calls=(\\d+),.*failed_calls=(\\d+)")
            .matcher(redis.command("INFO commandstats"));
    return m.find() ? Long.parseLong(m.group(1)) - Long.parseLong(m.group(2)) : 0;
  }
}
