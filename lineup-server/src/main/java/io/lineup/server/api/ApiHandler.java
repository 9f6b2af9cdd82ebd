package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.server.auth.Principal;

/** A route's handler: parses the request, calls the engine, writes the answer. */
@FunctionalInterface
public interface ApiHandler {
  /**
   * @param ctx the request and response
   * @param principal who called (the admin for public routes)
   * @throws Exception mapped to an HTTP answer by {@link ErrorMapper}
   */
  void handle(Context ctx, Principal principal) throws Exception;
}
