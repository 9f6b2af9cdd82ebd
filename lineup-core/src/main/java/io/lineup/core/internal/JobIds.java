package io.lineup.core.internal;

import java.security.SecureRandom;

/**
 * Generates job ids: 20 characters of lower-case Crockford base32 holding 45 bits of millisecond
 * time, a 15-bit counter and a 40-bit random process tag. They sort by creation time within a
 * process and do not collide across processes in practice. 20 characters is the most that still
 * fits Redis's smallest string allocation for the hash field and the sorted-set member.
 */
public final class JobIds {
  private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();
  private static final long PROCESS_TAG = new SecureRandom().nextLong() & ((1L << 40) - 1);
  private static long lastMillis;
  private static int counter;

  private JobIds() {}

  /**
   * A new id whose time part is {@code nowMillis} (the host clock; ids stay unique if it goes
   * back).
   */
  public static String next(long nowMillis) {
    long millis;
    int count;
    synchronized (JobIds.class) {
      millis = Math.max(nowMillis, lastMillis);
      if (millis == lastMillis) {
        counter++;
        if (counter >= 1 << 15) {
          // More than 32768 ids in one ms: borrow the next millisecond.
          millis++;
          counter = 0;
        }
      } else {
        counter = 0;
      }
      lastMillis = millis;
      count = counter;
    }
    char[] out = new char[20];
    long high = (millis << 15) | count; // 60 bits
    for (int i = 11; i >= 0; i--) {
      out[i] = ALPHABET[(int) (high & 31)];
      high >>>= 5;
    }
    long low = PROCESS_TAG; // 40 bits
    for (int i = 19; i >= 12; i--) {
      out[i] = ALPHABET[(int) (low & 31)];
      low >>>= 5;
    }
    return new String(out);
  }

  /** Random text for lease tokens: 8 base32 characters. */
  public static String nonce() {
    long bits = java.util.concurrent.ThreadLocalRandom.current().nextLong();
    char[] out = new char[8];
    for (int i = 0; i < 8; i++) {
      out[i] = ALPHABET[(int) (bits & 31)];
      bits >>>= 5;
    }
    return new String(out);
  }
}
