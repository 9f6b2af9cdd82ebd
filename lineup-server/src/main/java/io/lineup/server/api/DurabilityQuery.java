package io.lineup.server.api;

import io.javalin.http.Context;
import io.lineup.core.model.Durability;
import io.lineup.server.http.ApiException;
import java.time.Duration;

/**
 * The durability a publish asks for in its query: {@code durable_replicas} (0 to {@value
 * Durability#MAX_REPLICAS}; replicas that must hold the jobs before the answer) and {@code
 * durable_timeout_ms} (1 to 60000, default 1000; the longest wait for them). Without {@code
 * durable_replicas} the queue's {@code durable_replicas} setting applies.
 */
final class DurabilityQuery {
  static final String REPLICAS = "durable_replicas";
  static final String TIMEOUT = "durable_timeout_ms";

  private DurabilityQuery() {}

  /**
   * The durability asked for, or null when the query names none.
   *
   * @throws ApiException 400 {@code invalid_field} naming the parameter when a value is not a whole
   *     number in range, or a timeout comes without replicas
   */
  static Durability read(Context ctx) {
    Long replicas = number(ctx, REPLICAS, 0, Durability.MAX_REPLICAS);
    Long timeout = number(ctx, TIMEOUT, 1, Durability.MAX_TIMEOUT.toMillis());
    if (replicas == null) {
      if (timeout != null) {
        throw ApiException.invalidField(TIMEOUT, "is only taken with " + REPLICAS);
      }
      return null;
    }
    Durability durability = Durability.replicas(replicas.intValue());
    return timeout == null ? durability : durability.within(Duration.ofMillis(timeout));
  }

  private static Long number(Context ctx, String name, long min, long max) {
    String text = ctx.queryParam(name);
    if (text == null) {
      return null;
    }
    long value;
    try {
      value = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw ApiException.invalidField(
          name, "must be a whole number from " + min + " to " + max + ", got \"" + text + "\"");
    }
    if (value < min || value > max) {
      throw ApiException.invalidField(
          name, "must be a whole number from " + min + " to " + max + ", got " + value);
    }
    return value;
  }
}
