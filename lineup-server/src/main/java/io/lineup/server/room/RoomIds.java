package io.lineup.server.room;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

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

  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

  private final SecureRandom random = new SecureRandom();
  private final byte[] block = new byte[IDS_PER_DRAW * RoomService.ID_RANDOM_BYTES];
  private int next = block.length; // guarded by this

  /** A new id: {@code prefix} and 22 base64url characters. */
  String newId(char prefix) {
    byte[] bytes = new byte[RoomService.ID_RANDOM_BYTES];
    synchronized (this) {
      if (next == block.length) {
        random.nextBytes(block);
        next = 0;
      }
      System.arraycopy(block, next, bytes, 0, bytes.length);
      Arrays.fill(block, next, next + bytes.length, (byte) 0);
      next += bytes.length;
    }
    return prefix + BASE64URL.encodeToString(bytes);
  }
}
