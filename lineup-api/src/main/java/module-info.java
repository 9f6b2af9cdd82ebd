/**
 * What every side of Lineup's HTTP API shares: the name rules, the error codes and the JSON names
 * of the queue settings and the publish fields ({@code io.lineup.api}), and one record per resource
 * as it is on the wire ({@code io.lineup.api.resource}). The records' JSON names are Jackson
 * annotations, the module's only requirement beyond {@code java.base}.
 */
module io.lineup.api {
  requires transitive com.fasterxml.jackson.annotation;

  exports io.lineup.api;
  exports io.lineup.api.resource;
}
