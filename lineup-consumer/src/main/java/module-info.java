/**
 * The one consumer loop of Lineup: leases jobs into free slots, runs each on its own virtual
 * thread, extends its lease while it runs and settles it after, over any lease source ({@code
 * io.lineup.consumer}); and the Observation instrumentation of publishing and processing jobs that
 * the engine and the client share ({@code io.lineup.consumer.observation}). Both packages are
 * exported; the module requires nothing beyond {@code java.base} and Micrometer's Observation API
 * (no-op until a registry is given).
 */
module io.lineup.consumer {
  requires transitive micrometer.observation;
  requires transitive micrometer.commons;

  exports io.lineup.consumer;
  exports io.lineup.consumer.observation;
}
