package io.lineup.rooms;

import io.lineup.api.Names;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.QueueName;

/**
 * Names one waiting room: its namespace and name, and the engine queue whose jobs are its tickets
 * ({@code room.<name>} in the namespace).
 *
 * @param namespace the namespace
 * @param name the room's name
 */
public record RoomKey(String namespace, String name) {
  /** The prefix of a room's queue name. */
  public static final String QUEUE_PREFIX = Names.ROOM_QUEUE_PREFIX;

  /** Longest room name: the queue name's limit less the prefix (59 characters). */
  public static final int MAX_NAME_LENGTH = Names.MAX_ROOM_LENGTH;

  /**
   * @throws InvalidArgumentException naming {@code room} when the name is malformed
   */
  public RoomKey {
    if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
      throw new InvalidArgumentException(
          "room", "must be 1 to " + MAX_NAME_LENGTH + " characters of " + Names.CHARACTERS);
    }
    QueueName.of(namespace, QUEUE_PREFIX + name);
    if (Names.isOnlyDots(name)) {
      throw new InvalidArgumentException("room", "must not be made only of dots");
    }
  }

  /**
   * The room from its {@code namespace/room} text (a pass's audience).
   *
   * @throws InvalidArgumentException when the text is not such a name
   */
  public static RoomKey parse(String text) {
    int slash = text == null ? -1 : text.indexOf('/');
    if (slash < 0) {
      throw new InvalidArgumentException("room", "must be namespace/room");
    }
    return new RoomKey(text.substring(0, slash), text.substring(slash + 1));
  }

  /** The queue holding the room's tickets. */
  public QueueName queue() {
    return QueueName.of(namespace, QUEUE_PREFIX + name);
  }

  /** {@code namespace/room}: the record id and a pass's audience. */
  @Override
  public String toString() {
    return namespace + "/" + name;
  }
}
