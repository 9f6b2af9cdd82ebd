package io.lineup.server.api;

import io.lineup.core.Lineup;
import io.lineup.dispatch.Dispatcher;
import io.lineup.rooms.Rooms;
import io.lineup.server.archive.JobArchive;
import io.lineup.server.auth.NamespaceStore;
import io.lineup.server.auth.TokenStore;
import io.lineup.server.consumers.ConsumerActivity;
import io.lineup.server.history.QueueHistory;
import io.lineup.server.http.Draining;
import io.lineup.server.http.LeaseWaiters;
import io.lineup.server.metrics.ServerMetrics;

/**
 * What the handlers share, in a few named parts. A new face of the server (dispatch, the waiting
 * room) adds a part here; handlers that do not use it are not touched.
 *
 * @param lineup the engine
 * @param auth where namespaces and namespace tokens are kept
 * @param state this server instance's runtime state
 * @param limits the request limits the handlers enforce
 * @param dispatch API dispatch: endpoints, tasks, callbacks
 * @param rooms waiting rooms: rooms, tickets, passes, grants
 * @param history the recent history of every queue, kept in Redis
 * @param archive the SQL archive: lookups of jobs Redis no longer holds, the listing
 */
public record ApiContext(
    Lineup lineup,
    AuthStores auth,
    ServerState state,
    RequestLimits limits,
    Dispatcher dispatch,
    Rooms rooms,
    QueueHistory history,
    JobArchive archive) {

  /**
   * The auth stores.
   *
   * @param tokens namespace tokens
   * @param namespaces registered namespaces
   */
  public record AuthStores(TokenStore tokens, NamespaceStore namespaces) {}

  /**
   * The runtime state of this server instance (not shared with other instances).
   *
   * @param metrics the server's metrics
   * @param waiters the long-polls in progress
   * @param draining whether the server is shutting down
   * @param consumers the consumers seen by this instance, shared through Redis
   */
  public record ServerState(
      ServerMetrics metrics, LeaseWaiters waiters, Draining draining, ConsumerActivity consumers) {}

  /**
   * The request limits.
   *
   * @param maxBodyBytes the request body limit, in bytes
   * @param maxPayloadBytes the job payload limit, in bytes
   */
  public record RequestLimits(int maxBodyBytes, int maxPayloadBytes) {}
}
