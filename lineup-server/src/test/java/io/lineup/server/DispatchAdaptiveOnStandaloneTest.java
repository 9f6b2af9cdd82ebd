package io.lineup.server;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link DispatchAdaptiveTest} on a standalone Redis of its own. */
class DispatchAdaptiveOnStandaloneTest extends DispatchAdaptiveTest {
  @RegisterExtension static LineupServerExtension server = LineupServerExtension.onItsOwnRedis();

  @Override
  LineupServerExtension server() {
    return server;
  }
}
