package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;

/** What the engine's parts share: the store and the options. Package-private plumbing. */
record Engine(RedisStore store, LineupOptions options) {}
