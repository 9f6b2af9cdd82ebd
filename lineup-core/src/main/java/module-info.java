/**
 * The Lineup engine: Redis-backed queues with delays, priorities, leases, retries, limits and the
 * exact position and ETA of every waiting job.
 *
 * <p>The API is two packages: {@code io.lineup.core}, the runtime ({@code Lineup}, {@code Worker},
 * {@code Leaser}...), and {@code io.lineup.core.model}, the values, settings and exceptions it
 * takes and returns. The layers go one way: the runtime drives the internals, and both speak the
 * model's values. The internal packages ({@code internal.store}, the one owner of Redis I/O, and
 * {@code internal.maintenance}, the background sweeps) are not exported: on the module path nothing
 * outside the engine can reach them. Workers take the consumer contract of {@code
 * io.lineup.consumer} (handler, options), so that module comes with this one. lineup-bench's
 * micro-benchmarks, which run on the class path, use the store's argument builders and reply
 * decoders so that they measure the engine's own code; the architecture tests (module
 * lineup-architecture-tests) keep every other module off the internals, on the class path too.
 */
module io.lineup.core {
  requires transitive io.lineup.api;
  requires lettuce.core;
  requires org.slf4j;
  requires com.cronutils;
  requires transitive io.lineup.consumer;

  exports io.lineup.core;
  exports io.lineup.core.model;
}
