package io.lineup.api;

import java.util.Locale;

/**
 * The {@code error} codes of the API's error answers, each with its HTTP status: the server answers
 * with them and the client maps them to its exceptions. docs/server.md lists them with the cases
 * that produce them.
 */
public enum ErrorCode {
  /** The body is not JSON, or not the JSON shape the route takes (an object, an array). */
  INVALID_JSON(400),
  /** A field has the wrong type, is out of range, or is missing; {@code field} names it. */
  INVALID_FIELD(400),
  /** The body has a field the route does not take; {@code field} names it. */
  UNKNOWN_FIELD(400),
  /** A namespace, queue, job id or token id in the path is malformed; {@code field} names it. */
  INVALID_NAME(400),
  /**
   * A URL being registered (an endpoint's {@code base_url}, a callback prefix) names a target the
   * server's egress policy refuses; {@code field} names it and {@code reason} says why.
   */
  EGRESS_REFUSED(400),
  /** The request itself is malformed (bad URI, bad header); answered before routing. */
  BAD_REQUEST(400),
  /** No token, a malformed token, an unknown or a revoked token. */
  UNAUTHORIZED(401),
  /** The token may not do this: another namespace, a scope missing, an admin route. */
  FORBIDDEN(403),
  /** The priority is above the token's maximum; {@code field} is {@code priority}. */
  PRIORITY_NOT_ALLOWED(403),
  /**
   * The queue is one Lineup uses for its own work (an endpoint's, the callbacks', a room's): the
   * public queue routes refuse it for every token; {@code field} is {@code queue}.
   */
  RESERVED_QUEUE(403),
  /** Unknown job, queue, namespace, token, ticket, pass or route. */
  NOT_FOUND(404),
  /** The waiting room does not exist: never put, or deleted (its joins, JWKS and passes). */
  ROOM_NOT_FOUND(404),
  /**
   * The recurring schedule does not exist in that queue or endpoint: never put, or deleted; {@code
   * field} is {@code name}.
   */
  SCHEDULE_NOT_FOUND(404),
  /** The route exists, but not for this method. */
  METHOD_NOT_ALLOWED(405),
  /** The lease token no longer holds the job; {@code reason} says why. */
  LEASE_LOST(409),
  /** The job has already finished (done, cancelled or expired), so it cannot be cancelled. */
  JOB_FINISHED(409),
  /** A namespace with this name exists already. */
  ALREADY_EXISTS(409),
  /** A payload or a result is over its limit; {@code field} names it. */
  PAYLOAD_TOO_LARGE(413),
  /** The request body is over the body limit. */
  BODY_TOO_LARGE(413),
  /** The request headers or URI are over Jetty's limits. */
  HEADERS_TOO_LARGE(431),
  /**
   * The request line names an HTTP version the server does not speak (HTTP/0.9, an unknown one), or
   * is malformed so that it reads as one (no path); answered before routing.
   */
  HTTP_VERSION_NOT_SUPPORTED(505),
  /** The queue's rate limit refused the lease; {@code Retry-After} says when to come back. */
  RATE_LIMITED(429),
  /** The queue's concurrency limit refused the lease; {@code Retry-After} says when to retry. */
  CONCURRENCY_LIMITED(429),
  /**
   * A task's or a job's deadline ({@code start_by}, {@code finish_by} or their relative forms)
   * cannot be met by the line's ETA, or has passed; {@code field} names it and {@code
   * earliest_start_at} (epoch ms) says the earliest start the line could promise now. Nothing was
   * queued.
   */
  DEADLINE_UNREACHABLE(429),
  /**
   * A publish or a task submit would bring a fairness key of a fair queue past its most jobs
   * waiting; {@code key}, {@code max_waiting} and {@code waiting} say which and how many. Nothing
   * was queued.
   */
  KEY_BACKLOG_FULL(429),
  /** Redis cannot be reached or did not answer in time; retry later. */
  REDIS_UNAVAILABLE(503),
  /** Redis refused to store more data (maxmemory reached under noeviction). */
  REDIS_OUT_OF_MEMORY(503),
  /**
   * A durable publish was WRITTEN, but fewer Redis replicas than asked acknowledged it in time;
   * {@code jobs} lists what was written. Publishing again creates second jobs unless they carry
   * ids.
   */
  REPLICATION_TIMEOUT(503),
  /** The archive database cannot be reached or refused the read; retry later. */
  ARCHIVE_UNAVAILABLE(503),
  /** The server is shutting down; retry on another instance. */
  SHUTTING_DOWN(503),
  /** A waiting room of method reject is full, or someone waits; try again later. */
  ROOM_FULL(409),
  /** A grant is unknown, used, expired, or for another room or subject; {@code field} names it. */
  GRANT_REFUSED(403),
  /**
   * A pass failed the online check; {@code reason} says why (bad_signature, expired, wrong_room,
   * unknown_key, unsupported_algorithm, not_yet_valid, revoked).
   */
  PASS_REJECTED(403),
  /** The room's passes are not renewable, or the ticket holds no pass any more. */
  NOT_RENEWABLE(409),
  // ---- job lists and actions (issue 55) ----
  /**
   * An action on all jobs matching a filter was refused, nothing done: the filter matches {@code
   * count} jobs, not the {@code expected_count} the request confirmed.
   */
  COUNT_MISMATCH(409),
  // ---- end of job lists and actions ----
  /**
   * Resuming an endpoint whose circuit breaker holds it (open or half open); reset the circuit
   * first ({@code POST /v1/endpoints/{ns}/{endpoint}/circuit/reset}).
   */
  CIRCUIT_OPEN(409),
  /** A bug: the server failed unexpectedly. The log line with the request id says why. */
  INTERNAL(500);

  private final int status;

  ErrorCode(int status) {
    this.status = status;
  }

  /** The HTTP status this code is answered with. */
  public int status() {
    return status;
  }

  /** The code as it appears in the JSON answer, e.g. {@code invalid_field}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The code an answer's {@code error} names, or null for a code this version does not know (a
   * newer server's) and for null.
   */
  public static ErrorCode byCode(String code) {
    if (code == null) {
      return null;
    }
    for (ErrorCode value : values()) {
      if (value.code().equals(code)) {
        return value;
      }
    }
    return null;
  }
}
