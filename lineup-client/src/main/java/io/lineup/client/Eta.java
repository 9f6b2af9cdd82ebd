package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;

/**
 * An estimate of the wait until something waiting in line is served (a task sent, a ticket
 * admitted), from the server's measured service rate, with a band.
 *
 * @param point the expected wait
 * @param low the low end of the band
 * @param high the high end of the band
 */
public record Eta(Duration point, Duration low, Duration high) {
  /** The ETA of an answer's {@code eta_ms}, {@code eta_low_ms}, {@code eta_high_ms}, or null. */
  static Eta read(JsonNode node) {
    Duration point = Json.millis(node, "eta_ms");
    if (point == null) {
      return null;
    }
    Duration low = Json.millis(node, "eta_low_ms");
    Duration high = Json.millis(node, "eta_high_ms");
    return new Eta(point, low == null ? point : low, high == null ? point : high);
  }
}
