package io.lineup.server.room;

import java.security.SecureRandom;
import java.util.Base64;

/** Ids nobody can guess: a letter saying what it names and 128 random bits in base64url. */
final class RoomIds {
  private final SecureRandom random = new SecureRandom();

  /** A new id: {@code prefix} and 22 base64url characters. */
  String newId(char prefix) {
    byte[] bytes = new byte[RoomService.ID_RANDOM_BYTES];
    random.nextBytes(bytes);
    return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
