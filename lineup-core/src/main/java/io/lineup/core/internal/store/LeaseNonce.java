package io.lineup.core.internal.store;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Random text that makes one lease call's tokens unique: a token is {@code nonce.attempt}, so a
 * consumer whose lease ran out cannot settle the job under the next consumer's lease.
 */
public final class LeaseNonce {
  private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();

  private LeaseNonce() {}

  /** Eight random base32 characters (40 bits). */
  public static String next() {
    long bits = ThreadLocalRandom.current().nextLong();
    char[] out = new char[8];
    for (int i = 0; i < out.length; i++) {
      out[i] = ALPHABET[(int) (bits & 31)];
      bits >>>= 5;
    }
    return new String(out);
  }
}
