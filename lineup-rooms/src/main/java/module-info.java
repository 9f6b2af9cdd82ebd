/**
 * Waiting rooms on the Lineup engine: a fair line with exact positions and ETAs in front of an
 * origin, tickets, single-use priority grants and signed passes, as a typed Java API. Only {@code
 * io.lineup.rooms} exists and it is exported; it uses the engine's public API and the offline pass
 * check, and knows nothing of HTTP (the server adapts it).
 */
module io.lineup.rooms {
  requires transitive io.lineup.core;
  requires transitive io.lineup.pass;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.lineup.rooms;
}
