package io.lineup.server.api;

import io.lineup.api.ErrorCode;
import io.lineup.core.model.QueueName;
import io.lineup.dispatch.EndpointKey;
import io.lineup.rooms.RoomKey;
import io.lineup.server.http.ApiException;
import java.util.List;

/**
 * The queue names Lineup keeps for its own work: an endpoint's tasks ({@code dispatch.<endpoint>}),
 * the namespace's callbacks ({@code dispatch-callbacks}), a room's line ({@code room.<room>}), and
 * every other name starting with {@code dispatch.}, {@code dispatch-}, {@code room.} or {@code
 * lineup.} (kept for internal queues to come). The public queue routes that write to a queue or
 * show its payloads refuse these names for every token, the admin's included: their records are
 * written by the server only, and read through the endpoint and room routes. The server itself uses
 * the engine directly, so existing data keeps working.
 */
public final class ReservedQueueNames {
  /** The prefixes of reserved names. */
  public static final List<String> PREFIXES =
      List.of(EndpointKey.QUEUE_PREFIX, "dispatch-", RoomKey.QUEUE_PREFIX, "lineup.");

  private ReservedQueueNames() {}

  /** Whether a queue name (without its namespace) is Lineup's own. */
  public static boolean isReserved(String name) {
    for (String prefix : PREFIXES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a reserved queue on a public queue route.
   *
   * @throws ApiException 403 {@code reserved_queue} naming {@code queue} when it is reserved
   */
  public static QueueName refuse(QueueName queue) {
    if (isReserved(queue.name())) {
      throw new ApiException(
          ErrorCode.RESERVED_QUEUE,
          "queue",
          "queue "
              + queue.name()
              + " is used by Lineup itself (names starting with "
              + String.join(", ", PREFIXES)
              + " are reserved): use the endpoint or room routes");
    }
    return queue;
  }
}
