/**
 * The Java client of Lineup's HTTP API: queues, jobs, rooms, dispatch and administration over one
 * {@code java.net.http} client, and {@code RemoteWorker}, which runs the shared consumer loop over
 * long-poll leases. Only {@code io.lineup.client} exists and it is exported; its workers take the
 * consumer contract's handler and options, and some of its views carry Jackson's JSON trees, so
 * those modules come with it.
 */
module io.lineup.client {
  requires io.lineup.api;
  requires transitive io.lineup.consumer;
  requires transitive com.fasterxml.jackson.databind;
  requires java.net.http;

  exports io.lineup.client;
}
