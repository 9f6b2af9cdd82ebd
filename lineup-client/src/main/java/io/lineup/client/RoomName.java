package io.lineup.client;

import io.lineup.api.Names;
import java.util.Objects;

/**
 * A waiting room's name: a namespace (1 to 64 characters) and a name (1 to 59 characters), each of
 * {@code A-Z a-z 0-9 _ . -}, neither only dots: the server's rule, {@link Names}. Written {@code
 * namespace/name}, e.g. {@code shop/checkout}; a pass's audience is this text.
 *
 * @param namespace the namespace (a token acts in one namespace)
 * @param name the room's name in its namespace
 */
public record RoomName(String namespace, String name) {
  /** Longest room name, in characters (its queue's name adds {@code room.}). */
  public static final int MAX_LENGTH = Names.MAX_ROOM_LENGTH;

  /**
   * @throws IllegalArgumentException when a part is null or malformed
   */
  public RoomName {
    NameChecks.check("room", "namespace", namespace, Names.MAX_LENGTH);
    NameChecks.check("room", "name", name, MAX_LENGTH);
  }

  /**
   * The room {@code namespace/name}.
   *
   * @throws IllegalArgumentException when a part is malformed
   */
  public static RoomName of(String namespace, String name) {
    return new RoomName(namespace, name);
  }

  /**
   * Reads {@code namespace/name}.
   *
   * @throws IllegalArgumentException when the text is not two well-formed parts around one slash
   */
  public static RoomName parse(String text) {
    String[] parts =
        NameChecks.split(Objects.requireNonNull(text, "text"), "a room", "shop/checkout");
    return new RoomName(parts[0], parts[1]);
  }

  /** {@code namespace/name}. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
