package io.lineup.server;

import io.lineup.testing.RedisClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DispatchAdaptiveTest} on the run's three-master Redis Cluster. */
class DispatchAdaptiveOnClusterTest extends DispatchAdaptiveTest {
  @RegisterExtension
  static LineupServerExtension server =
      LineupServerExtension.on(RedisClusterExtension.sharedThreeMasters());

  @Override
  LineupServerExtension server() {
    return server;
  }
}
