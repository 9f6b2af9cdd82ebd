package io.lineup.core;

import io.lineup.core.internal.KeySpace;
import io.lineup.core.internal.LuaScript;
import io.lineup.core.internal.RedisGateway;

/** What the engine's parts share: the gateway and the options. Package-private plumbing. */
record Engine(RedisGateway gateway, LineupOptions options) {
  String now() {
    return options.timeSource().scriptArgument();
  }

  Object run(LuaScript script, QueueName queue, byte[][] args) {
    return gateway.run(script, KeySpace.queueKeys(queue), args);
  }
}
