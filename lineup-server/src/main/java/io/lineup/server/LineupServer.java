package io.lineup.server;

import io.lineup.core.Lineup;
import io.lineup.core.LineupOptions;
import io.lineup.server.api.ApiContext;
import io.lineup.server.api.RouteTable;
import io.lineup.server.auth.AdminToken;
import io.lineup.server.auth.Authenticator;
import io.lineup.server.auth.NamespaceStore;
import io.lineup.server.auth.TokenStore;
import io.lineup.server.http.Draining;
import io.lineup.server.http.LeaseWaiters;
import io.lineup.server.http.RequestBody;
import io.lineup.server.metrics.ServerMetrics;
import io.lineup.server.redis.EmbeddedRedis;
import io.lineup.server.redis.RedisStartupCheck;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Lineup server: the engine, the HTTP API and, without {@code LINEUP_REDIS_URL}, its own
 * Redis. Start with {@link #start(ServerSettings)}; {@link #close()} shuts down gracefully: it
 * stops accepting, ends long-polls (they answer 204), waits for requests in progress (up to the
 * shutdown grace), then closes the engine and the embedded Redis.
 */
public final class LineupServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LineupServer.class);

  private final ServerSettings settings;
  private final EmbeddedRedis embedded;
  private final Lineup lineup;
  private final String adminToken;
  private final Draining draining = new Draining();
  private final LeaseWaiters waiters = new LeaseWaiters();
  private final List<String> redisWarnings;
  private final HttpApi http;
  private boolean closed;

  private LineupServer(ServerSettings settings) {
    this.settings = settings;
    EmbeddedRedis redis = null;
    Lineup engine = null;
    try {
      String redisUrl = settings.redisUrl();
      if (settings.embeddedRedis()) {
        redis = EmbeddedRedis.start(settings.dataDir());
        LOG.info(redis.announcement());
        redisUrl = redis.uri();
      }
      ServerMetrics metrics = new ServerMetrics();
      engine =
          Lineup.connect(
              LineupOptions.builder(redisUrl)
                  .maxPayloadBytes(settings.maxPayloadBytes())
                  .commandTimeout(settings.redisTimeout())
                  .latencyListener(metrics.redisLatencyListener())
                  .build());
      this.redisWarnings = RedisStartupCheck.run(engine);
      this.adminToken = AdminToken.resolve(settings.adminToken(), settings.dataDir());
      Clock clock = Clock.systemUTC();
      TokenStore tokens = new TokenStore(engine, clock);
      int maxBody = RequestBody.limitFor(settings.maxPayloadBytes());
      ApiContext api =
          new ApiContext(
              engine,
              new ApiContext.AuthStores(tokens, new NamespaceStore(engine, clock)),
              new ApiContext.ServerState(metrics, waiters, draining),
              new ApiContext.RequestLimits(maxBody, settings.maxPayloadBytes()));
      metrics.watchWaiters(waiters::count);
      this.http =
          new HttpApi(
              settings,
              RouteTable.routes(api),
              new Authenticator(adminToken, tokens),
              metrics,
              draining,
              maxBody);
      this.embedded = redis;
      this.lineup = engine;
    } catch (RuntimeException | Error e) {
      if (engine != null) {
        engine.close();
      }
      if (redis != null) {
        redis.close();
      }
      throw e;
    }
    LOG.info("Lineup listening on http://{}:{}", displayHost(settings.host()), port());
  }

  /**
   * Starts a server.
   *
   * @throws io.lineup.core.RedisUnavailableException when Redis cannot be reached
   * @throws IllegalStateException when the embedded Redis cannot start
   * @throws io.javalin.util.JavalinException when the port cannot be bound
   */
  public static LineupServer start(ServerSettings settings) {
    return new LineupServer(settings);
  }

  /** The HTTP port (the one picked when the settings said 0). */
  public int port() {
    return http.port();
  }

  /** {@code http://127.0.0.1:PORT} (or the bound host). */
  public String baseUrl() {
    return "http://" + displayHost(settings.host()) + ":" + port();
  }

  /** The admin token in force. */
  public String adminToken() {
    return adminToken;
  }

  /** The warnings the Redis start-up check logged. */
  public List<String> redisWarnings() {
    return redisWarnings;
  }

  /** The embedded Redis's announcement, or null when an external Redis is used. */
  public String embeddedRedisAnnouncement() {
    return embedded == null ? null : embedded.announcement();
  }

  /** Long-polls waiting now. */
  public int waitingLeases() {
    return waiters.count();
  }

  /** Stops gracefully; safe to call twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    LOG.info("Shutting down: no new requests, ending long-polls, finishing requests in progress");
    draining.start();
    http.stopAccepting();
    waiters.interruptAll();
    http.close();
    lineup.close();
    if (embedded != null) {
      embedded.close();
    }
    LOG.info("Lineup stopped");
  }

  private static String displayHost(String host) {
    return "0.0.0.0".equals(host) || "::".equals(host) || host.isBlank() ? "127.0.0.1" : host;
  }
}
