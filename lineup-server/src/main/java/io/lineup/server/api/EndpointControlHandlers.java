package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.dispatch.EndpointKey;
import io.lineup.dispatch.EndpointView;
import io.lineup.server.auth.Principal;

/**
 * An operator's controls of an endpoint: pause, resume and reset its circuit breaker. Each answers
 * the endpoint as it stands after the change, read back from Redis, so what a caller shows is what
 * the server holds.
 */
public final class EndpointControlHandlers {
  private final ApiContext api;

  public EndpointControlHandlers(ApiContext api) {
    this.api = api;
  }

  /**
   * {@code POST /v1/endpoints/{ns}/{endpoint}/pause}: its tasks are accepted and none is sent until
   * it is resumed; tasks already sent finish. Pausing a paused endpoint changes nothing.
   */
  public void pause(Context ctx, Principal principal) {
    answer(ctx, api.dispatch().endpoints().setPaused(DispatchHandlers.endpoint(ctx), true));
  }

  /**
   * {@code POST /v1/endpoints/{ns}/{endpoint}/resume}: sends its tasks again. 409 {@code
   * circuit_open} when its circuit breaker holds it (open or half open): nothing is changed then,
   * and {@code .../circuit/reset} resumes it.
   */
  public void resume(Context ctx, Principal principal) {
    answer(ctx, api.dispatch().endpoints().setPaused(DispatchHandlers.endpoint(ctx), false));
  }

  /**
   * {@code POST /v1/endpoints/{ns}/{endpoint}/circuit/reset}: closes its circuit breaker and clears
   * the count of failures; its tasks are sent again unless the endpoint itself is paused.
   */
  public void resetCircuit(Context ctx, Principal principal) {
    EndpointKey key = DispatchHandlers.endpoint(ctx);
    answer(ctx, api.dispatch().endpoints().resetCircuit(key));
  }

  private static void answer(Context ctx, EndpointView view) {
    Responses.json(ctx, 200, EndpointJson.view(view));
  }
}
