/**
 * One record per resource of the HTTP API, as it is on the wire: the JSON names, the order and the
 * null-or-absent rules of its fields are the records' Jackson annotations. Times are epoch
 * milliseconds (Redis server time) in fields ending {@code _at}; durations are milliseconds in
 * fields ending {@code _ms}. The server converts its values to these records at its edge; the
 * client and the command line read the server's answers into them.
 */
package io.lineup.api.resource;
