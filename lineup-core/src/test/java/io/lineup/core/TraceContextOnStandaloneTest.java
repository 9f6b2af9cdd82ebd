package io.lineup.core;

import io.lineup.testing.RedisServerExtension;
import io.lineup.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link TraceContextTest} on a standalone Redis of its own. */
class TraceContextOnStandaloneTest extends TraceContextTest {
  @RegisterExtension
  static final RedisServerExtension standalone = RedisServerExtension.withDefaults();

  @Override
  TestRedis redis() {
    return standalone;
  }
}
