/**
 * What every side of Lineup's HTTP API shares: the name rules, the error codes and the JSON names
 * of the queue settings and the publish fields. Only {@code io.lineup.api} exists and it is
 * exported; the module requires nothing beyond {@code java.base}.
 */
module io.lineup.api {
  exports io.lineup.api;
}
