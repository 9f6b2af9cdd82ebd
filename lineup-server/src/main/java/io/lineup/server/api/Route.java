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
 */
public record Route(HandlerType method, String path, Access access, ApiHandler handler) {
  /** A GET route. */
  public static Route get(String path, Access access, ApiHandler handler) {
    return new Route(HandlerType.GET, path, access, handler);
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
