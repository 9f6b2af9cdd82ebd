package io.lineup.server.http;

import io.lineup.api.ErrorCode;
import io.lineup.dispatch.CircuitOpenException;
import io.lineup.dispatch.DispatchException;
import io.lineup.dispatch.DispatchInputException;
import io.lineup.dispatch.EndpointNotFoundException;
import io.lineup.dispatch.TaskNotFoundException;

/** The HTTP answers of dispatch's errors, by type ({@link ErrorMapper} asks here). */
final class DispatchErrors {
  private DispatchErrors() {}

  /** The API error a dispatch error stands for. */
  static ApiException toApiException(DispatchException error) {
    return switch (error) {
      case DispatchInputException refused -> {
        ApiException api = new ApiException(refused.code(), refused.field(), refused.getMessage());
        refused.details().forEach(api::with);
        yield api;
      }
      case EndpointNotFoundException unknown ->
          new ApiException(ErrorCode.NOT_FOUND, "endpoint", unknown.getMessage())
              .with("endpoint", unknown.key().name());
      case TaskNotFoundException unknown -> ApiException.notFound(unknown.getMessage());
      case CircuitOpenException held ->
          new ApiException(ErrorCode.CIRCUIT_OPEN, null, held.getMessage())
              .with("endpoint", held.key().name())
              .with("circuit_breaker_state", held.state());
    };
  }
}
