package io.lineup.core;

import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link JobListsTest} on a standalone Redis of its own. */
class JobListsOnStandaloneTest extends JobListsTest {
  @RegisterExtension
  static final RedisServerExtension standalone = RedisServerExtension.withDefaults();

  @Override
  TestRedis redis() {
    return standalone;
  }
}
