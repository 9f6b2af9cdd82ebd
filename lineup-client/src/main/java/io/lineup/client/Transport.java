package io.lineup.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.lineup.api.ErrorCode;
import io.lineup.api.resource.JobState;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * One HTTP client for every call (so connections are reused), the token on every request, JSON in
 * and out, and every error answer turned into its exception type.
 */
final class Transport {
  /** An answer: its status and its JSON body, null when it had none. */
  record Reply(int status, JsonNode body) {}

  private final HttpClient http;
  private final String baseUrl;
  private final String token;
  private final Duration requestTimeout;

  Transport(HttpClient http, String baseUrl, String token, Duration requestTimeout) {
    this.http = http;
    this.baseUrl = baseUrl;
    this.token = token;
    this.requestTimeout = requestTimeout;
  }

  String baseUrl() {
    return baseUrl;
  }

  /** One path segment, percent-encoded. */
  static String segment(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  Reply get(String path) {
    return send("GET", path, null, requestTimeout);
  }

  Reply delete(String path) {
    return send("DELETE", path, null, requestTimeout);
  }

  Reply put(String path, JsonNode body) {
    return send("PUT", path, body, requestTimeout);
  }

  Reply post(String path, JsonNode body) {
    return send("POST", path, body, requestTimeout);
  }

  /** A POST with these headers besides those every request has. */
  Reply post(String path, JsonNode body, Map<String, String> headers) {
    return send("POST", path, body, requestTimeout, headers);
  }

  Reply patch(String path, JsonNode body) {
    return send("PATCH", path, body, requestTimeout);
  }

  /** GET of a text answer (metrics). */
  String getText(String path) {
    HttpRequest request = request(path, requestTimeout).GET().build();
    HttpResponse<String> response = exchange(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 400) {
      throw failure(response.statusCode(), parseQuietly(response.body()), response);
    }
    return response.body();
  }

  /**
   * Sends a request.
   *
   * @param timeout how long to wait for the whole answer
   * @throws LineupClientException (a subclass) for an error answer or no answer
   */
  Reply send(String method, String path, JsonNode body, Duration timeout) {
    return send(method, path, body, timeout, Map.of());
  }

  /**
   * Sends a request with headers of its own.
   *
   * @param headers headers besides those every request has (a trace context)
   * @throws LineupClientException (a subclass) for an error answer or no answer
   */
  Reply send(
      String method, String path, JsonNode body, Duration timeout, Map<String, String> headers) {
    HttpRequest.BodyPublisher publisher =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(Json.write(body));
    HttpRequest.Builder builder = request(path, timeout).method(method, publisher);
    if (body != null) {
      builder.header("Content-Type", "application/json");
    }
    headers.forEach(builder::header);
    HttpResponse<String> response = exchange(builder.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode json = parseQuietly(response.body());
    if (response.statusCode() >= 400) {
      throw failure(response.statusCode(), json, response);
    }
    return new Reply(response.statusCode(), json);
  }

  private HttpRequest.Builder request(String path, Duration timeout) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(timeout)
            .header("Accept", "application/json");
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    return builder;
  }

  private <T> HttpResponse<T> exchange(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return http.send(request, handler);
    } catch (HttpTimeoutException e) {
      throw new ServerUnreachableException(
          "no answer from " + baseUrl + " within " + request.timeout().orElse(null), e);
    } catch (ConnectException e) {
      // The JDK reports a refused connection without a message of its own.
      String why = e.getMessage() == null ? "connection refused" : e.getMessage();
      throw new ServerUnreachableException("cannot connect to " + baseUrl + ": " + why, e);
    } catch (IOException e) {
      throw new ServerUnreachableException(
          "the connection to " + baseUrl + " failed: " + describe(e), e);
    } catch (InterruptedException e) {
      // Keep the flag: the caller (a worker closing, say) decides what an interrupt means.
      Thread.currentThread().interrupt();
      throw new ServerUnreachableException("interrupted while waiting for " + baseUrl, e);
    }
  }

  private static String describe(Throwable e) {
    while (e.getMessage() == null && e.getCause() != null) {
      e = e.getCause();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static JsonNode parseQuietly(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Json.parse(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static LineupClientException failure(
      int status, JsonNode body, HttpResponse<?> response) {
    String requestId = response.headers().firstValue("X-Request-Id").orElse(null);
    String code = body == null ? null : Json.text(body, "error");
    String field = body == null ? null : Json.text(body, "field");
    String message = body == null ? null : Json.text(body, "message");
    if (message == null) {
      message = "HTTP " + status + " from " + response.uri();
    }
    if (code == null) {
      ErrorCode byStatus =
          switch (status) {
            case 401 -> ErrorCode.UNAUTHORIZED;
            case 403 -> ErrorCode.FORBIDDEN;
            case 404 -> ErrorCode.NOT_FOUND;
            default -> null;
          };
      code = byStatus == null ? null : byStatus.code();
    }
    ErrorCode known = ErrorCode.byCode(code);
    Duration retryAfter = retryAfter(body, response);
    return switch (status) {
      case 400, 405, 414, 431 ->
          new InvalidRequestException(status, code, field, message, requestId);
      case 401 -> new UnauthorizedException(status, code, field, message, requestId);
      case 403 ->
          switch (known == null ? ErrorCode.FORBIDDEN : known) {
            case GRANT_REFUSED ->
                new GrantRefusedException(status, code, field, message, requestId);
            case PASS_REJECTED ->
                new PassRejectedException(
                    status, code, field, message, requestId, Json.text(body, "reason"));
            default -> new ForbiddenException(status, code, field, message, requestId);
          };
      case 404 -> new NotFoundException(status, code, field, message, requestId);
      case 409 ->
          switch (known == null ? ErrorCode.INTERNAL : known) {
            case LEASE_LOST ->
                new LeaseLostException(field, message, requestId, Json.text(body, "reason"));
            case JOB_FINISHED ->
                new JobFinishedException(
                    field, message, requestId, stateOrNull(Json.text(body, "state")));
            case ALREADY_EXISTS ->
                new AlreadyExistsException(status, code, field, message, requestId);
            case ROOM_FULL -> new RoomFullException(status, code, field, message, requestId);
            case NOT_RENEWABLE ->
                new NotRenewableException(status, code, field, message, requestId);
            case COUNT_MISMATCH ->
                new CountMismatchException(
                    field, message, requestId, body.path("count").asLong(-1));
            default -> new ServerErrorException(status, code, field, message, requestId);
          };
      case 413 -> new PayloadTooLargeException(status, code, field, message, requestId);
      case 429 ->
          switch (known == null ? ErrorCode.RATE_LIMITED : known) {
            case DEADLINE_UNREACHABLE ->
                new DeadlineUnreachableException(
                    field, message, requestId, Json.time(body, "earliest_start_at"));
            case KEY_BACKLOG_FULL ->
                new KeyBacklogFullException(
                    field,
                    message,
                    requestId,
                    Json.text(body, "key"),
                    body.path("max_waiting").asLong(-1),
                    body.path("waiting").asLong(-1));
            default -> new LeaseRefusedException(code, message, requestId, retryAfter);
          };
      case 503 -> new ServiceUnavailableException(code, message, requestId, retryAfter);
      default -> new ServerErrorException(status, code, field, message, requestId);
    };
  }

  private static JobState stateOrNull(String text) {
    try {
      return Json.state(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Duration retryAfter(JsonNode body, HttpResponse<?> response) {
    if (body != null && body.hasNonNull("retry_after_ms")) {
      return Duration.ofMillis(Math.max(1, body.get("retry_after_ms").asLong()));
    }
    return response
        .headers()
        .firstValue("Retry-After")
        .map(text -> {
          try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(text.trim())));
          } catch (NumberFormatException e) {
            return Duration.ofSeconds(1);
          }
        })
        .orElse(Duration.ofSeconds(1));
  }
}
