/**
 * The one consumer loop of Lineup: leases jobs into free slots, runs each on its own virtual
 * thread, extends its lease while it runs and settles it after, over any lease source. Only {@code
 * io.lineup.consumer} exists and it is exported; the module requires nothing beyond {@code
 * java.base}.
 */
module io.lineup.consumer {
  exports io.lineup.consumer;
}
