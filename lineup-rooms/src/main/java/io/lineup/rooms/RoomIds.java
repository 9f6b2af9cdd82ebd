package io.lineup.rooms;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Ids nobody can guess: a letter saying what it names and 128 random bits in base64url.
 *
 * <p>The random bytes are drawn from the system's secure generator a block at a time: one call per
 * {@value #IDS_PER_DRAW} ids instead of one per id, since each call to the generator takes its lock
 * and mixes its state (a join paid about 10 % of its CPU for it). Bytes handed out are wiped from
 * the block, so this object never holds a used id's bytes.
 */
final class RoomIds {
  /** Ids drawn from the secure generator at once. */
  static final int IDS_PER_DRAW = 256;

  /** The base64url alphabet (RFC 4648, section 5). */
  private static final char[] BASE64URL =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".toCharArray();

  private final SecureRandom random = new SecureRandom();
  private final byte[] block = new byte[IDS_PER_DRAW * Rooms.ID_RANDOM_BYTES];
  private int next = block.length; // guarded by this

  /** A new id: {@code prefix} and 22 base64url characters. */
  String newId(char prefix) {
    byte[] bytes = new byte[Rooms.ID_RANDOM_BYTES];
    synchronized (this) {
      if (next == block.length) {
        random.nextBytes(block);
        next = 0;
      }
      System.arraycopy(block, next, bytes, 0, bytes.length);
      Arrays.fill(block, next, next + bytes.length, (byte) 0);
      next += bytes.length;
    }
    return encode(prefix, bytes);
  }

  /**
   * {@code prefix} and the bytes in unpadded base64url, written straight into one char array (the
   * JDK's encoder makes two copies on the way, which showed in a join's profile).
   */
  static String encode(char prefix, byte[] bytes) {
    char[] out = new char[1 + (bytes.length * 4 + 2) / 3];
    out[0] = prefix;
    int o = 1;
    int i = 0;
    for (; i + 3 <= bytes.length; i += 3) {
      int bits = (bytes[i] & 0xff) << 16 | (bytes[i + 1] & 0xff) << 8 | (bytes[i + 2] & 0xff);
      out[o++] = BASE64URL[bits >>> 18];
      out[o++] = BASE64URL[(bits >>> 12) & 63];
      out[o++] = BASE64URL[(bits >>> 6) & 63];
      out[o++] = BASE64URL[bits & 63];
    }
    int left = bytes.length - i;
    if (left > 0) {
      int bits = (bytes[i] & 0xff) << 16 | (left == 2 ? (bytes[i + 1] & 0xff) << 8 : 0);
      out[o++] = BASE64URL[bits >>> 18];
      out[o++] = BASE64URL[(bits >>> 12) & 63];
      if (left == 2) {
        out[o++] = BASE64URL[(bits >>> 6) & 63];
      }
    }
    return new String(out);
  }
}
