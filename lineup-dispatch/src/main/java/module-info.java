/**
 * API dispatch on the engine: endpoints that Lineup calls for tenants (rate limits, concurrency,
 * retries, circuit breakers), their tasks and signed callbacks, behind the egress policy that
 * decides what a request may reach. {@code io.lineup.dispatch} is the API ({@code Dispatcher} and
 * its parts); {@code io.lineup.dispatch.egress} is the outbound trust boundary.
 */
module io.lineup.dispatch {
  requires transitive io.lineup.core;
  requires transitive io.lineup.api;
  requires org.eclipse.jetty.client;
  requires org.eclipse.jetty.http;
  requires org.eclipse.jetty.io;
  requires org.eclipse.jetty.util;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.lineup.dispatch;
  exports io.lineup.dispatch.egress;
}
