package io.lineup.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.lineup.api.DeadlineFields;
import io.lineup.api.ErrorCode;
import io.lineup.api.JobListFields;
import io.lineup.api.PublishFields;
import io.lineup.core.model.CountMismatchException;
import io.lineup.core.model.DeadlineUnreachableException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobFinishedException;
import io.lineup.core.model.JobNotFoundException;
import io.lineup.core.model.KeyBacklogFullException;
import io.lineup.core.model.LeaseLostException;
import io.lineup.core.model.PayloadTooLargeException;
import io.lineup.core.model.RedisOutOfMemoryException;
import io.lineup.core.model.RedisUnavailableException;
import io.lineup.core.model.ReplicationTimeoutException;
import io.lineup.core.model.ScheduleNotFoundException;
import io.lineup.dispatch.DispatchException;
import io.lineup.rooms.RoomException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.io.EofException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns a failure into an HTTP answer: the status, the JSON error shape {@code
 * {"error", "message", "field"}} and headers such as {@code Retry-After}.
 */
public final class ErrorMapper {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

  /** Seconds a client should wait before retrying while Redis is unavailable. */
  public static final int REDIS_RETRY_AFTER_SECONDS = 1;

  private ErrorMapper() {}

  /** The API error an exception stands for. */
  public static ApiException toApiException(Throwable error) {
    if (error instanceof ApiException api) {
      return api;
    }
    if (error instanceof RoomException room) {
      return RoomErrors.toApiException(room);
    }
    if (error instanceof DispatchException refused) {
      return DispatchErrors.toApiException(refused);
    }
    if (error instanceof PayloadTooLargeException tooLarge) {
      return new ApiException(
          ErrorCode.PAYLOAD_TOO_LARGE,
          EngineFieldNames.toHttp(tooLarge.field()),
          tooLarge.reason());
    }
    if (error instanceof InvalidArgumentException invalid) {
      return ApiException.invalidField(EngineFieldNames.toHttp(invalid.field()), invalid.reason());
    }
    if (error instanceof CountMismatchException mismatch) {
      return new ApiException(
              ErrorCode.COUNT_MISMATCH, JobListFields.EXPECTED_COUNT, mismatch.getMessage())
          .with("count", mismatch.actual())
          .with(JobListFields.EXPECTED_COUNT, mismatch.expected());
    }
    if (error instanceof DeadlineUnreachableException late) {
      return new ApiException(
              ErrorCode.DEADLINE_UNREACHABLE,
              PublishFields.START_BY,
              "the job cannot start by "
                  + late.startBy()
                  + ": the queue's line could start it by "
                  + late.earliestStartAt()
                  + " at the latest; nothing was queued")
          .with(DeadlineFields.EARLIEST_START_AT, late.earliestStartAt().toEpochMilli())
          .with("index", late.index());
    }
    if (error instanceof KeyBacklogFullException full) {
      // No Retry-After: the key's backlog drains as its jobs are leased, at a pace the server
      // cannot foresee (the key's weight, limits and the consumers decide it), so any number of
      // seconds would be a guess; the body says how full the key is instead.
      return new ApiException(ErrorCode.KEY_BACKLOG_FULL, PublishFields.KEY, full.getMessage())
          .with("key", full.key())
          .with("max_waiting", full.maxWaiting())
          .with("waiting", full.waiting());
    }
    if (error instanceof ScheduleNotFoundException notFound) {
      return new ApiException(ErrorCode.SCHEDULE_NOT_FOUND, "name", notFound.getMessage());
    }
    if (error instanceof JobNotFoundException notFound) {
      return ApiException.notFound(notFound.getMessage());
    }
    if (error instanceof JobFinishedException finished) {
      return new ApiException(ErrorCode.JOB_FINISHED, null, finished.getMessage())
          .with("state", finished.state().name());
    }
    if (error instanceof LeaseLostException lost) {
      return new ApiException(ErrorCode.LEASE_LOST, "token", lost.getMessage())
          .with("reason", lost.reason().name().toLowerCase(Locale.ROOT));
    }
    if (error instanceof RedisUnavailableException unavailable) {
      return new ApiException(
              ErrorCode.REDIS_UNAVAILABLE, null, redisUnavailableMessage(unavailable.getMessage()))
          .header("Retry-After", Integer.toString(REDIS_RETRY_AFTER_SECONDS));
    }
    if (error instanceof RedisOutOfMemoryException outOfMemory) {
      return new ApiException(ErrorCode.REDIS_OUT_OF_MEMORY, null, outOfMemory.getMessage())
          .header("Retry-After", Integer.toString(REDIS_RETRY_AFTER_SECONDS));
    }
    if (error instanceof ReplicationTimeoutException replication) {
      List<Map<String, Object>> jobs =
          replication.results().stream()
              .map(result -> {
                Map<String, Object> job = new LinkedHashMap<>();
                job.put("id", result.id());
                job.put("created", result.created());
                return job;
              })
              .toList();
      return new ApiException(ErrorCode.REPLICATION_TIMEOUT, null, replication.getMessage())
          .with("replicas_requested", replication.requested())
          .with("replicas_acknowledged", replication.acknowledged())
          .with("jobs", jobs);
    }
    if (error instanceof HttpResponseException http) {
      return fromJavalin(http);
    }
    return new ApiException(
        ErrorCode.INTERNAL,
        null,
        "internal error; the server log has the details under this request id");
  }

  /**
   * The engine's message, which already names Redis ("Redis is unavailable: …", "Cannot connect to
   * Redis at …"), given once; other texts get the prefix.
   */
  static String redisUnavailableMessage(String engineMessage) {
    String text = String.valueOf(engineMessage);
    return text.contains("Redis") ? text : "Redis is unavailable: " + text;
  }

  /**
   * Writes the answer for a failure; unexpected failures are logged with their stack trace. A
   * failure to write to a client that went away (a page left before its answer came) is no server
   * failure and has nobody to answer: it is logged at debug level only.
   */
  public static void respond(Throwable error, Context ctx) {
    if (clientWentAway(error)) {
      LOG.debug(
          "{} {}: the client went away before its answer was written", ctx.method(), ctx.path());
      return;
    }
    ApiException api = toApiException(error);
    if (error instanceof HttpResponseException && api.code() == ErrorCode.NOT_FOUND) {
      api = notFoundRoute(ctx.path());
    }
    log(api, error, ctx.method().name(), ctx.path());
    write(api, ctx);
  }

  /** Whether a failure is Jetty's end of a connection the client closed, anywhere in its causes. */
  static boolean clientWentAway(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof EofException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Logs a failure worth an operator's look: an unexpected one with its stack trace, Redis being
   * away or full as a warning; bad input is not logged (the caller got the reason).
   */
  public static void log(ApiException api, Throwable error, String method, String path) {
    if (api.code() == ErrorCode.INTERNAL) {
      LOG.error("Request failed: {} {}", method, path, error);
    } else if (api.code() == ErrorCode.REDIS_UNAVAILABLE
        || api.code() == ErrorCode.REDIS_OUT_OF_MEMORY) {
      LOG.warn("{} {}: {}", method, path, api.getMessage());
    }
  }

  /** Writes an API error as JSON. */
  public static void write(ApiException api, Context ctx) {
    headers(api).forEach(ctx::header);
    ctx.status(api.status());
    ctx.contentType("application/json");
    ctx.result(Json.write(body(api)));
  }

  /** The headers an API error is answered with ({@code Retry-After}, {@code WWW-Authenticate}). */
  public static Map<String, String> headers(ApiException api) {
    if (api.code() != ErrorCode.UNAUTHORIZED) {
      return api.headers();
    }
    Map<String, String> headers = new LinkedHashMap<>(api.headers());
    headers.put("WWW-Authenticate", "Bearer");
    return headers;
  }

  /** The JSON error shape of an API error. */
  public static ObjectNode body(ApiException api) {
    ObjectNode body = Json.object();
    body.put("error", api.code().code());
    body.put("message", api.getMessage());
    if (api.field() != null) {
      body.put("field", api.field());
    }
    for (Map.Entry<String, Object> entry : api.extra().entrySet()) {
      body.putPOJO(entry.getKey(), entry.getValue());
    }
    return body;
  }

  /** Javalin's 404: no route has this path; a trailing slash is the usual reason. */
  private static ApiException notFoundRoute(String path) {
    if (path != null && path.length() > 1 && path.endsWith("/")) {
      String without = path.replaceAll("/+$", "");
      return ApiException.notFound(
          "no such route: paths do not end with a slash (try "
              + (without.isEmpty() ? "/" : without)
              + ")");
    }
    return ApiException.notFound("no such route; the routes are listed in /openapi.json");
  }

  private static ApiException fromJavalin(HttpResponseException http) {
    int status = http.getStatus();
    ErrorCode code =
        switch (status) {
          case 404 -> ErrorCode.NOT_FOUND;
          case 405 -> ErrorCode.METHOD_NOT_ALLOWED;
          case 413 -> ErrorCode.BODY_TOO_LARGE;
          case 401 -> ErrorCode.UNAUTHORIZED;
          case 403 -> ErrorCode.FORBIDDEN;
          case 503 -> ErrorCode.SHUTTING_DOWN;
          default -> status >= 500 ? ErrorCode.INTERNAL : ErrorCode.BAD_REQUEST;
        };
    String message =
        switch (code) {
          case NOT_FOUND -> "no such route; the routes are listed in /openapi.json";
          case METHOD_NOT_ALLOWED -> "this route does not take this method";
          default -> String.valueOf(http.getMessage());
        };
    ApiException api = new ApiException(code, null, message);
    String allowed = http.getDetails().get("availableMethods");
    if (code == ErrorCode.METHOD_NOT_ALLOWED && allowed != null) {
      api.header("Allow", allowed);
    }
    return api;
  }
}
