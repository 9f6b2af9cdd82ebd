package io.lineup.server.api;

import io.javalin.http.HandlerType;
import io.lineup.server.auth.Access;

/**
 * One row of the route table.
 *
 * @param method the HTTP method
 * @param path the path template, e.g. {@code /v1/queues/{ns}/{queue}/jobs}
 * @param access who may call it
 * @param handler what it does
 * @param lane what it does when served on the server's core lane (a {@code POST} route whose path
 *     is {@code {ns}/{name}} between a fixed prefix and suffix), or null: only the handler serves
 *     it
 */
public record Route(
    HandlerType method, String path, Access access, ApiHandler handler, LaneAction lane) {
  /** A route without a lane. */
  public Route(HandlerType method, String path, Access access, ApiHandler handler) {
    this(method, path, access, handler, null);
  }

  /**
   * This route, also served on the core lane by {@code lane} (which must answer as the handler
   * does).
   */
  public Route onLane(LaneAction lane) {
    return new Route(method, path, access, handler, lane);
  }

  /** A GET route. */
  public static Route get(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.GET, path, access, handler);
  }

  /** A HEAD route: the headers a GET of the same path would answer, without its body. */
  public static Route head(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.HEAD, path, access, handler);
  }

  /** A POST route. */
  public static Route post(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.POST, path, access, handler);
  }

  /** A PUT route. */
  public static Route put(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.PUT, path, access, handler);
  }

  /** A PATCH route. */
  public static Route patch(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.PATCH, path, access, handler);
  }

  /** A DELETE route. */
  public static Route delete(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.DELETE, path, access, handler);
  }
}
