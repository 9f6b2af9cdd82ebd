package io.lineup.server.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.lineup.api.ErrorCode;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;

/** Health, readiness, metrics and the OpenAPI document. */
public final class SystemHandlers {
  /** The OpenAPI document, a resource next to this class. */
  public static final String OPENAPI_RESOURCE = "/io/lineup/server/openapi.json";

  private final ApiContext api;
  private final byte[] openApi;

  public SystemHandlers(ApiContext api) {
    this.api = api;
    this.openApi = loadOpenApi();
  }

  /** {@code GET /health}: 200 while the process runs. */
  public void health(Context ctx, Principal principal) {
    ObjectNode answer = Json.object();
    answer.put("status", "up");
    Responses.json(ctx, 200, answer);
  }

  /** {@code GET /ready}: 200 when Redis answers a PING, else 503. */
  public void ready(Context ctx, Principal principal) {
    if (api.state().draining().isOn()) {
      throw new ApiException(ErrorCode.SHUTTING_DOWN, null, "the server is shutting down");
    }
    Duration ping = api.lineup().ping();
    ObjectNode answer = Json.object();
    answer.put("status", "ready");
    answer.put("redis_ping_ms", ping.toNanos() / 1e6);
    Responses.json(ctx, 200, answer);
  }

  /** {@code GET /metrics}: the Prometheus text format. */
  public void metrics(Context ctx, Principal principal) {
    ctx.status(200);
    ctx.contentType("text/plain; version=0.0.4; charset=utf-8");
    ctx.result(api.state().metrics().scrape(api.lineup()));
  }

  /** {@code GET /openapi.json}. */
  public void openApi(Context ctx, Principal principal) {
    ctx.status(200);
    ctx.contentType("application/json");
    ctx.result(openApi);
  }

  private static byte[] loadOpenApi() {
    try (InputStream in = SystemHandlers.class.getResourceAsStream(OPENAPI_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("The OpenAPI document is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
