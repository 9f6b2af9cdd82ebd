package io.lineup.core;

import io.lineup.testing.RedisClusterExtension;
import io.lineup.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link TraceContextTest} on the run's three-master Redis Cluster. */
class TraceContextOnClusterTest extends TraceContextTest {
  @RegisterExtension
  static final RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

  @Override
  TestRedis redis() {
    return cluster;
  }
}
