package io.lineup.pass;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tokens whose signature a {@link PassVerifier} has already checked, with their claims, so that the
 * next request carrying the same pass skips the Ed25519 verification (the costly part of a check:
 * the JDK's Ed25519 is written in Java). Only tokens that verified are kept, keyed by their exact
 * text: an altered copy is another key and is checked in full. The claims' room and times are still
 * checked on every use. An entry is dropped once its pass has expired; when {@code capacity}
 * unexpired passes are held, a quarter of them (whichever the map iterates first) are dropped, so
 * it never holds more. Thread-safe.
 */
final class VerifiedTokens {
  private final int capacity;
  private final Map<String, Pass> entries = new ConcurrentHashMap<>();

  /**
   * @param capacity the most tokens held; 0 keeps none
   */
  VerifiedTokens(int capacity) {
    this.capacity = capacity;
  }

  /** The claims of a token verified before, or null. */
  Pass get(String token) {
    return capacity == 0 ? null : entries.get(token);
  }

  /**
   * Remembers a token whose signature verified.
   *
   * @param dropBefore passes that expired before this instant are dropped to make room
   */
  void put(String token, Pass pass, Instant dropBefore) {
    if (capacity == 0) {
      return;
    }
    if (entries.size() >= capacity) {
      entries.values().removeIf(p -> p.expiresAt().isBefore(dropBefore));
      // Still full of live passes: drop a quarter, in no particular order (a dropped pass costs
      // one full check when it comes back); cheaper to keep than a recency order per look-up.
      var it = entries.keySet().iterator();
      int keep = capacity - Math.max(1, capacity / 4);
      while (entries.size() > keep && it.hasNext()) {
        it.next();
        it.remove();
      }
    }
    entries.put(token, pass);
  }

  /** How many tokens are held now. */
  int size() {
    return entries.size();
  }
}
