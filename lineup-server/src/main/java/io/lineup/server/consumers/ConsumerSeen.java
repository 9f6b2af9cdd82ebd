package io.lineup.server.consumers;

/**
 * A consumer of a queue as seen in the last minute.
 *
 * @param name its name (given with its leases, or derived from its token and address)
 * @param lastSeenMs when a request of it was last seen, epoch ms (now while it waits in a
 *     long-poll)
 * @param waiting its long-polls waiting now
 * @param leased jobs it leased in the last minute
 * @param acked jobs it acked in the last minute
 */
public record ConsumerSeen(String name, long lastSeenMs, long waiting, long leased, long acked) {

  /** The stored form: {@code last_seen_ms,waiting,leased,acked}. */
  String encode() {
    return lastSeenMs + "," + waiting + "," + leased + "," + acked;
  }

  /** A stored form read back, or null when it is not one. */
  static ConsumerSeen decode(String name, String text) {
    String[] f = text.split(",");
    if (f.length != 4) {
      return null;
    }
    try {
      return new ConsumerSeen(
          name,
          Long.parseLong(f[0]),
          Long.parseLong(f[1]),
          Long.parseLong(f[2]),
          Long.parseLong(f[3]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The figures of one consumer on two instances, together. */
  ConsumerSeen plus(ConsumerSeen other) {
    return new ConsumerSeen(
        name,
        Math.max(lastSeenMs, other.lastSeenMs),
        waiting + other.waiting,
        leased + other.leased,
        acked + other.acked);
  }
}
