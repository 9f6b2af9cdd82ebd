package io.lineup.rooms;

import java.util.List;

/**
 * A room's signing keys after a rotation.
 *
 * @param currentKid the id of the key that signs from now on
 * @param publishedKids the ids of every key still published (the retired one until its passes
 *     expire)
 */
public record KeyRotation(String currentKid, List<String> publishedKids) {
  /** Copies the list (unmodifiable). */
  public KeyRotation {
    publishedKids = List.copyOf(publishedKids);
  }
}
