package io.lineup.core;

import io.lineup.core.model.NewJob;
import io.lineup.core.model.QueueName;
import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Domain words for tests: fresh queues, jobs, engines. */
final class Fixtures {
  private Fixtures() {}

  /** A queue no other test touches. */
  static QueueName aFreshQueue() {
    return QueueName.of(
        RedisServerExtension.uniqueName("ns"), RedisServerExtension.uniqueName("q"));
  }

  /** A job carrying {@code text}. */
  static NewJob aJob(String text) {
    return NewJob.ofText(text);
  }

  /** A job due after {@code delay}. */
  static NewJob aDelayedJob(String text, Duration delay) {
    return NewJob.ofText(text).delay(delay);
  }

  /** {@code count} jobs carrying {@code prefix0}, {@code prefix1}, …, in that order. */
  static List<NewJob> someJobs(int count, String prefix) {
    List<NewJob> jobs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      jobs.add(aJob(prefix + i));
    }
    return jobs;
  }

  /** An engine on the test's Redis, background loops on. */
  static Lineup anEngine(TestRedis redis) {
    return Lineup.connect(
        LineupOptions.builder(redis.uri()).maintenanceInterval(Duration.ofMillis(100)).build());
  }

  /** An engine on the test's Redis with options changed by {@code tune}. */
  static Lineup anEngine(
      TestRedis redis, java.util.function.UnaryOperator<LineupOptions.Builder> tune) {
    return Lineup.connect(
        tune.apply(LineupOptions.builder(redis.uri()).maintenanceInterval(Duration.ofMillis(100)))
            .build());
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
