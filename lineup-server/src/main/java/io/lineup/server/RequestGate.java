package io.lineup.server;

import io.lineup.api.ErrorCode;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Draining;
import io.lineup.server.http.RequestIds;
import io.lineup.server.metrics.ServerMetrics;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * What every request passes before and after its handler, whichever way it is served (Javalin's
 * routes or the {@link CoreLane}): its request id, the refusal while shutting down, the token
 * check, and at the end the request metrics and the access log.
 */
final class RequestGate {
  private static final Logger LOG = LoggerFactory.getLogger(RequestGate.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("io.lineup.server.access");

  private static final Set<String> STANDARD_METHODS =
      Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

  private final Authenticator authenticator;
  private final ServerMetrics metrics;
  private final Draining draining;
  private final boolean metricsPublic;
  private final boolean logRequests;

  /**
   * @param authenticator checks tokens
   * @param metrics records request latency
   * @param draining whether the shutdown has begun
   * @param metricsPublic whether {@code /metrics} is open to all
   * @param logRequests whether each request is logged on the access logger
   */
  RequestGate(
      Authenticator authenticator,
      ServerMetrics metrics,
      Draining draining,
      boolean metricsPublic,
      boolean logRequests) {
    this.authenticator = authenticator;
    this.metrics = metrics;
    this.draining = draining;
    this.metricsPublic = metricsPublic;
    this.logRequests = logRequests;
  }

  /**
   * Opens a request: keeps the caller's well-formed id or makes one, and puts it in the logging
   * context until {@link #close}.
   *
   * @param callerId the request's {@code X-Request-Id} header, or null
   * @return the id to send back
   */
  String open(String callerId) {
    String id = idOf(callerId);
    resume(id);
    return id;
  }

  /**
   * {@link #open} for a request served without blocking, whose work hops between threads: the id,
   * put in the logging context only by {@link #resume} on the thread that logs.
   */
  String idOf(String callerId) {
    return RequestIds.accept(callerId);
  }

  /** Puts a request's id in this thread's logging context, until {@link #close}. */
  void resume(String id) {
    MDC.put(RequestIds.MDC_KEY, id);
  }

  /**
   * Whether this request is refused because the shutdown has begun ({@code /health} never is). The
   * caller answers {@code Connection: close} and throws {@link #shuttingDown()}.
   */
  boolean refuses(String path) {
    return draining.isOn() && !"/health".equals(path);
  }

  /** 503 {@code shutting_down}. */
  static ApiException shuttingDown() {
    return new ApiException(
        ErrorCode.SHUTTING_DOWN, null, "the server is shutting down; retry on another instance");
  }

  /**
   * Who called, checked against the route's rule.
   *
   * @param authorization the {@code Authorization} header, or null
   * @param access the route's rule
   * @param namespace the path's namespace, checked (read only for namespace routes)
   * @return the caller, or null on a public route
   * @throws ApiException 401 without a valid token, 403 when the token may not call the route, 400
   *     when the path's namespace is not a name
   */
  Principal authorize(String authorization, Access access, Supplier<String> namespace) {
    switch (access.kind()) {
      case PUBLIC -> {
        return null;
      }
      case METRICS -> {
        if (metricsPublic) {
          return null;
        }
      }
      default -> {}
    }
    return allowed(authenticator.authenticate(authorization), access, namespace);
  }

  /**
   * The caller, once checked against the route's rule (the path's namespace read only for namespace
   * routes).
   *
   * @throws ApiException 403 when it may not call the route, 400 for a bad namespace
   */
  private static Principal allowed(Principal principal, Access access, Supplier<String> namespace) {
    String ns = access.kind() == Access.Kind.NAMESPACE ? namespace.get() : null;
    Authenticator.authorize(principal, access, ns);
    return principal;
  }

  /**
   * Closes a request: records its latency under its route, logs it when asked, and clears the
   * logging context. Never throws.
   *
   * @param route the route's path template, or null when no route matched
   * @param nanos how long it took, in nanoseconds
   */
  void close(String method, String route, String path, int status, long nanos) {
    try {
      String label = STANDARD_METHODS.contains(method) ? method : "OTHER";
      metrics.recordHttp(label, route == null ? "unmatched" : route, status, nanos);
      if (logRequests) {
        ACCESS.info("{} {} {} {} ms", method, path, status, String.format("%.1f", nanos / 1e6));
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not record a request", e);
    } finally {
      MDC.remove(RequestIds.MDC_KEY);
    }
  }
}
