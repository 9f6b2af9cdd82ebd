package io.lineup.server;

import io.javalin.Javalin;
import io.javalin.compression.CompressionStrategy;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HandlerType;
import io.javalin.http.HttpResponseException;
import io.javalin.util.JavalinBindException;
import io.lineup.server.api.PathNames;
import io.lineup.server.api.Route;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.Principal;
import io.lineup.server.http.ApiHeaders;
import io.lineup.server.http.Draining;
import io.lineup.server.http.ErrorMapper;
import io.lineup.server.http.JsonErrorHandler;
import io.lineup.server.http.RequestIds;
import io.lineup.server.http.RequestTargetGuard;
import io.lineup.server.metrics.ServerMetrics;
import java.util.List;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP front: Javalin on Jetty with virtual threads, the route table, request ids, token checks
 * before every handler, the error mapping and request metrics.
 */
final class HttpApi implements AutoCloseable {
  private static final String ROUTE = "lineup.route";

  /** Platform threads for Jetty's own work (selectors, acceptors); requests run on virtual ones. */
  static final int MAX_PLATFORM_THREADS = 32;

  static final int MIN_PLATFORM_THREADS = 4;

  /**
   * Connections the kernel holds for the acceptor before it takes them (the listen backlog; the
   * kernel caps it at {@code net.core.somaxconn}). Java's default is 50, which a burst of clients
   * connecting at once (consumers after a restart) can overflow; a connection whose handshake is
   * dropped waits for the client's retry, a second or more.
   */
  static final int ACCEPT_QUEUE = 1024;

  /**
   * The longest request line plus headers taken, in bytes (Jetty's default, said here because the
   * docs name it).
   */
  static final int MAX_HEAD_BYTES = 8 * 1024;

  private final Javalin app;
  private final GracefulHandler graceful;

  /**
   * Starts serving.
   *
   * @param settings where to listen and what to log
   * @param routes the route table; the routes with a {@link Route#lane()} are also served on the
   *     core lane
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
    RequestGate gate =
        new RequestGate(
            authenticator, metrics, draining, settings.metricsPublic(), settings.logRequests());
    // The routes that have a lane action are served by the core lane (without a query), on
    // Jetty's core API; every other request passes through it to the servlet layer.
    List<LaneRoute> laneRoutes =
        routes.stream().filter(route -> route.lane() != null).map(HttpApi::laneRoute).toList();
    CoreLane lane = new CoreLane(laneRoutes, gate, maxBodyBytes);
    this.graceful = new GracefulHandler(lane);
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
          config.jetty.modifyHttpConfiguration(HttpApi::strictHttp);
          config.jetty.addConnector((server, http) -> {
            // Jetty's HTTP/1.1 parser is the only one that reads a request: one reading of
            // where a request ends, so no request can hide in another's body.
            ServerConnector connector =
                new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(settings.host());
            connector.setPort(settings.port());
            connector.setAcceptQueueSize(ACCEPT_QUEUE);
            return connector;
          });
          config.jetty.modifyServer(server -> {
            server.setErrorHandler(new JsonErrorHandler());
            // Javalin puts its servlet context inside the innermost wrapper, the lane. At
            // stop, Jetty stops accepting, lets requests in progress finish (answers
            // written) for up to the stop timeout, then closes.
            server.setHandler(new RequestTargetGuard(graceful));
            server.setStopTimeout(settings.shutdownGrace().toMillis());
          });
          config.routes.before(ctx -> begin(ctx, gate));
          for (Route route : routes) {
            config.routes.addHttpHandler(route.method(), route.path(), guarded(route, gate));
          }
          // Javalin's own 404 and 405 come as HttpResponseException, which has a default
          // handler.
          config.routes.exception(HttpResponseException.class, ErrorMapper::respond);
          config.routes.exception(Exception.class, ErrorMapper::respond);
          config.requestLogger.http((ctx, millis) -> end(ctx, millis, gate));
        });
    try {
      app.start();
    } catch (JavalinBindException e) {
      // LineupServer checked the port before starting Redis; another process took it since.
      throw StartupException.portTaken(settings.host(), settings.port(), e);
    }
  }

  /**
   * Jetty's HTTP/1.1 parsing held to RFC 9110 and 9112 with no leniency ({@link
   * HttpCompliance#STRICT}): a request with a folded header line, a line ended by a bare LF, both
   * {@code Content-Length} and {@code Transfer-Encoding}, more than one {@code Content-Length}, a
   * {@code Transfer-Encoding} whose last coding is not {@code chunked}, a space before a header's
   * colon, more than one {@code Host} or a control character in the head is answered 400 and its
   * connection closed. The request line and headers together may take {@link #MAX_HEAD_BYTES} (a
   * longer target is 414, a longer head 431).
   */
  private static void strictHttp(HttpConfiguration http) {
    http.setHttpCompliance(HttpCompliance.STRICT);
    http.setRequestHeaderSize(MAX_HEAD_BYTES);
    // No per-connection cache of header lines: API callers' lines differ (tokens, ids), and its
    // lookups were about 4 % of the server's CPU samples per publish.
    http.setHeaderCacheSize(0);
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

  /** Requests being served now (read, not yet answered), whichever way they are served. */
  int requestsInProgress() {
    return (int) graceful.getCurrentRequestCount();
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

  /** The lane's form of a route that has a lane action; the lane serves only {@code POST}s. */
  private static LaneRoute laneRoute(Route route) {
    if (route.method() != HandlerType.POST) {
      throw new IllegalArgumentException("only a POST route has a lane: " + route.path());
    }
    return new LaneRoute(route.path(), route.access(), route.lane());
  }

  private static void begin(Context ctx, RequestGate gate) {
    ctx.header(RequestIds.HEADER, gate.open(ctx.header(RequestIds.HEADER)));
    if (ApiHeaders.appliesTo(ctx.path())) {
      ApiHeaders.put(ctx::header);
    }
    if (gate.refuses(ctx.path())) {
      ctx.header("Connection", "close");
      throw RequestGate.shuttingDown();
    }
  }

  private static Handler guarded(Route route, RequestGate gate) {
    return ctx -> {
      ctx.attribute(ROUTE, route.path());
      Principal principal =
          gate.authorize(
              ctx.header("Authorization"), route.access(), () -> PathNames.namespace(ctx));
      route.handler().handle(ctx, principal);
    };
  }

  private static void end(Context ctx, Float millis, RequestGate gate) {
    long nanos = millis == null ? 0 : (long) (millis * 1_000_000.0);
    gate.close(ctx.method().name(), ctx.attribute(ROUTE), ctx.path(), ctx.statusCode(), nanos);
  }
}
