package io.lineup.server;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpResponseException;
import io.javalin.util.JavalinBindException;
import io.lineup.server.api.PathNames;
import io.lineup.server.api.Route;
import io.lineup.server.auth.Access;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiException;
import io.lineup.server.http.Draining;
import io.lineup.server.http.ErrorCode;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.JsonErrorHandler;
import io.lineup.server.http.RequestIds;
import io.lineup.server.http.RequestTargetGuard;
import io.lineup.server.metrics.ServerMetrics;
import java.util.List;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The HTTP front: Javalin on Jetty with virtual threads, the route table, request ids, token checks
 * before every handler, the error mapping and request metrics.
 */
final class HttpApi implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HttpApi.class);
  private static final Logger ACCESS = LoggerFactory.getLogger("io.lineup.server.access");
  private static final String ROUTE = "lineup.route";

  /** Platform threads for Jetty's own work (selectors, acceptors); requests run on virtual ones. */
  static final int MAX_PLATFORM_THREADS = 32;

  static final int MIN_PLATFORM_THREADS = 4;

  private static final java.util.Set<String> STANDARD_METHODS =
      java.util.Set.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

  private final Javalin app;

  /**
   * Starts serving.
   *
   * @param settings where to listen and what to log
   * @param routes the route table
   * @param authenticator checks tokens
   * @param metrics records request latency
   * @param draining refuses new requests once the shutdown has begun
   * @param maxBodyBytes the request body limit
   */
  HttpApi(
      ServerSettings settings,
      List<Route> routes,
      Authenticator authenticator,
      ServerMetrics metrics,
      Draining draining,
      int maxBodyBytes) {
    this.app =
        Javalin.create(config -> {
          config.jetty.threadPool = threadPool();
          config.startup.showJavalinBanner = false;
          config.startup.showOldJavalinVersionWarning = false;
          config.http.maxRequestSize = maxBodyBytes;
          // Answers are small JSON; compressing them costs more CPU than it saves.
          config.http.compressionStrategy = CompressionStrategy.NONE;
          config.http.prefer405over404 = true;
          // One path per resource: /v1/queues/a/q/jobs/ is not /v1/queues/a/q/jobs (404 says so).
          config.router.ignoreTrailingSlashes = false;
          // No per-connection cache of header lines: API callers' lines differ (tokens, ids),
          // and its lookups were about 4 % of the server's CPU samples per publish.
          config.jetty.modifyHttpConfiguration(http -> http.setHeaderCacheSize(0));
          config.jetty.host = settings.host();
          config.jetty.port = settings.port();
          config.jetty.modifyServer(server -> {
            server.setErrorHandler(new JsonErrorHandler());
            // Javalin puts its servlet context inside this wrapper. At stop, Jetty stops
            // accepting, lets requests in progress finish (answers written) for up to the
            // stop timeout, then closes.
            server.setHandler(new RequestTargetGuard(new GracefulHandler()));
            server.setStopTimeout(settings.shutdownGrace().toMillis());
          });
          config.routes.before(ctx -> begin(ctx, draining));
          for (Route route : routes) {
            config.routes.addHttpHandler(
                route.method(),
                route.path(),
                guarded(route, authenticator, settings.metricsPublic()));
          }
          // Javalin's own 404 and 405 come as HttpResponseException, which has a default
          // handler.
          config.routes.exception(HttpResponseException.class, ErrorMapper::respond);
          config.routes.exception(Exception.class, ErrorMapper::respond);
          config.requestLogger.http((ctx, millis) -> end(ctx, millis, metrics, settings));
        });
    try {
      app.start();
    } catch (JavalinBindException e) {
      // LineupServer checked the port before starting Redis; another process took it since.
      throw LineupServer.portTaken(settings.host(), settings.port(), e);
    }
  }

  /**
   * Jetty's selector and acceptor on a few platform threads, every request handler on its own
   * virtual thread: a handler may block (a long-poll, a Redis round trip) without holding a
   * carrier, and the selectors never compete with handlers for the few carrier threads.
   */
  private static QueuedThreadPool threadPool() {
    QueuedThreadPool pool = new QueuedThreadPool(MAX_PLATFORM_THREADS, MIN_PLATFORM_THREADS);
    pool.setName("lineup-http");
    pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("lineup-request"));
    return pool;
  }

  /** The port it listens on. */
  int port() {
    return app.port();
  }

  /** Stops accepting new connections; requests on open connections still run. */
  void stopAccepting() {
    for (Connector connector : app.jettyServer().server().getConnectors()) {
      if (connector instanceof ServerConnector server) {
        server.setAccepting(false);
      }
    }
  }

  /** Stops Jetty gracefully: requests in progress finish, up to the shutdown grace. */
  @Override
  public void close() {
    app.stop();
  }

  private static void begin(Context ctx, Draining draining) {
    String id = RequestIds.accept(ctx.header(RequestIds.HEADER));
    ctx.header(RequestIds.HEADER, id);
    MDC.put(RequestIds.MDC_KEY, id);
    if (draining.isOn() && !"/health".equals(ctx.path())) {
      ctx.header("Connection", "close");
      throw new ApiException(
          ErrorCode.SHUTTING_DOWN, null, "the server is shutting down; retry on another instance");
    }
  }

  private static Handler guarded(Route route, Authenticator authenticator, boolean metricsPublic) {
    return ctx -> {
      ctx.attribute(ROUTE, route.path());
      Principal principal = authorize(ctx, route.access(), authenticator, metricsPublic);
      route.handler().handle(ctx, principal);
    };
  }

  private static Principal authorize(
      Context ctx, Access access, Authenticator authenticator, boolean metricsPublic) {
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
    Principal principal = authenticator.authenticate(ctx.header("Authorization"));
    String namespace = access.kind() == Access.Kind.NAMESPACE ? PathNames.namespace(ctx) : null;
    Authenticator.authorize(principal, access, namespace);
    return principal;
  }

  /** The method as a metric label; unusual methods share one label so labels stay few. */
  private static String methodLabel(Context ctx) {
    String method = ctx.method().name();
    return STANDARD_METHODS.contains(method) ? method : "OTHER";
  }

  private static void end(
      Context ctx, Float millis, ServerMetrics metrics, ServerSettings settings) {
    try {
      String route = ctx.attribute(ROUTE);
      int status = ctx.statusCode();
      long nanos = millis == null ? 0 : (long) (millis * 1_000_000.0);
      metrics.recordHttp(methodLabel(ctx), route == null ? "unmatched" : route, status, nanos);
      if (settings.logRequests()) {
        ACCESS.info(
            "{} {} {} {} ms",
            ctx.method().name(),
            ctx.path(),
            status,
            String.format("%.1f", millis));
      }
    } catch (RuntimeException e) {
      LOG.warn("Could not record a request", e);
    } finally {
      MDC.remove(RequestIds.MDC_KEY);
    }
  }
}
