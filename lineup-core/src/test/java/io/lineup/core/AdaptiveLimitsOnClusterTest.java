package io.lineup.core;

import io.lineup.testing.RedisClusterExtension;
import io.lineup.testing.TestRedis;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link AdaptiveLimitsTest} on the run's three-master Redis Cluster. */
class AdaptiveLimitsOnClusterTest extends AdaptiveLimitsTest {
  @RegisterExtension
  static final RedisClusterExtension cluster = RedisClusterExtension.sharedThreeMasters();

  @Override
  TestRedis redis() {
    return cluster;
  }
}
