package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.server.http.Json;

/** Writes JSON answers. */
final class Responses {
  private Responses() {}

  /** Answers {@code status} with a JSON body. */
  static void json(Context ctx, int status, Object body) {
    ctx.status(status);
    ctx.contentType("application/json");
    ctx.result(Json.write(body));
  }

  /** Answers 204 without a body. */
  static void noContent(Context ctx) {
    ctx.status(204);
  }
}
