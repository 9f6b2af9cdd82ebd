package io.lineup.junit;

import io.lineup.client.AlreadyExistsException;
import io.lineup.client.LineupClient;
import io.lineup.redis.RedisProcess;
import io.lineup.server.LineupServer;
import io.lineup.server.ServerSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * One Lineup server that the extension started, with what it runs on: a temporary folder, the
 * redis-server started for it (none on an existing Redis) and a client with the admin token. {@link
 * #close()} stops them all, in the reverse order, and deletes the folder; closing twice is
 * harmless. Stored in JUnit's extension store, which closes it when its test class or method ends.
 */
final class RunningLineup implements AutoCloseable {
  /** The prefix of the temporary folder of every server the extension starts. */
  static final String FOLDER_PREFIX = "lineup-junit-";

  private final ExtensionSettings settings;
  private final Path folder;
  private final RedisProcess redis;
  private final LineupServer server;
  private final LineupClient admin;
  // Read once: a stopped server no longer knows its port, and a failure message may still name it.
  private final String baseUrl;
  private final LineupTestServer base;
  private boolean closed;

  private RunningLineup(
      ExtensionSettings settings,
      Path folder,
      RedisProcess redis,
      LineupServer server,
      LineupClient admin,
      String namespace) {
    this.settings = settings;
    this.folder = folder;
    this.redis = redis;
    this.server = server;
    this.admin = admin;
    this.baseUrl = server.baseUrl();
    this.base = open(namespace);
  }

  /**
   * Starts Redis (unless the settings name one) and a server on it, on 127.0.0.1 and a free port,
   * with a random admin token, and opens {@code namespace}. What did start is stopped again when a
   * later step fails.
   *
   * @throws IllegalStateException when redis-server cannot start
   * @throws RuntimeException what {@link LineupServer#start} throws when the server cannot start
   */
  static RunningLineup start(ExtensionSettings settings, String namespace) {
    Path folder = createFolder();
    RedisProcess redis = null;
    LineupServer server = null;
    LineupClient admin = null;
    try {
      String redisUrl = settings.redisUrl();
      if (redisUrl == null) {
        redis =
            RedisProcess.builder()
                .dataDir(folder.resolve("redis"))
                // As a production Redis for Lineup runs (the server warns otherwise).
                .setting("maxmemory-policy", "noeviction")
                .build()
                .start();
        redisUrl = redis.uri();
      }
      ServerSettings.Builder defaults =
          ServerSettings.builder()
              .host("127.0.0.1")
              .port(0)
              .redisUrl(redisUrl)
              .adminToken(newAdminToken())
              .dataDir(folder.resolve("server"));
      server = LineupServer.start(settings.serverSettings().apply(defaults).build());
      admin = LineupClient.connect(server.baseUrl(), server.adminToken());
      return new RunningLineup(settings, folder, redis, server, admin, namespace);
    } catch (RuntimeException | Error e) {
      List<Throwable> failures = new ArrayList<>();
      stopAll(admin, server, redis, folder, failures);
      failures.forEach(e::addSuppressed);
      throw e;
    }
  }

  /** The handle of the namespace the server was started with. */
  LineupTestServer base() {
    return base;
  }

  /**
   * Registers {@code namespace} (when it is not yet), issues a token for it with the settings'
   * scopes and priority, and returns its handle with a client of that token; the caller closes the
   * handle's client ({@link LineupTestServer#closeClient()}).
   */
  LineupTestServer open(String namespace) {
    try {
      admin.admin().createNamespace(namespace);
    } catch (AlreadyExistsException registered) {
      // An existing Redis may hold it from an earlier run; a new token is issued all the same.
    }
    String token =
        admin
            .admin()
            .createToken(namespace, settings.scopes(), settings.maxPriority(), "lineup-junit")
            .token();
    return new LineupTestServer(this, namespace, token);
  }

  /** {@code http://127.0.0.1:PORT}. */
  String baseUrl() {
    return baseUrl;
  }

  /** The admin token, random for each server. */
  String adminToken() {
    return server.adminToken();
  }

  /** The address of the Redis the server runs on. */
  String redisUrl() {
    return redis != null ? redis.uri() : settings.redisUrl();
  }

  /** The temporary folder of the server's (and its Redis's) data; deleted on close. */
  Path folder() {
    return folder;
  }

  /** A client with the admin token, for the handles' helpers; closed with the server. */
  LineupClient admin() {
    return admin;
  }

  /**
   * Closes the base namespace's client, the admin client, the server and Redis, then deletes the
   * folder; each step runs even when one before it failed.
   *
   * @throws IllegalStateException when a step failed, with each failure suppressed in it
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<Throwable> failures = new ArrayList<>();
    try {
      base.closeClient();
    } catch (RuntimeException e) {
      failures.add(e);
    }
    stopAll(admin, server, redis, folder, failures);
    if (!failures.isEmpty()) {
      IllegalStateException failure =
          new IllegalStateException("Could not stop everything the Lineup extension started");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }

  private static void stopAll(
      LineupClient admin,
      LineupServer server,
      RedisProcess redis,
      Path folder,
      List<Throwable> failures) {
    List<AutoCloseable> steps = new ArrayList<>();
    if (admin != null) {
      steps.add(admin);
    }
    if (server != null) {
      steps.add(server); // Before Redis: the server's loops end while Redis still answers.
    }
    if (redis != null) {
      steps.add(redis);
    }
    steps.add(() -> deleteFolder(folder));
    for (AutoCloseable step : steps) {
      try {
        step.close();
      } catch (Exception e) {
        failures.add(e);
      }
    }
  }

  /** Long and random, so no other program on the machine guesses it; printable ASCII as needed. */
  private static String newAdminToken() {
    return "lineup-junit-" + UUID.randomUUID().toString().replace("-", "");
  }

  /** A name of 8 random hex digits after {@code base} and a dash, for a fresh namespace. */
  static String freshName(String base) {
    byte[] random = new byte[4];
    ThreadLocalRandom.current().nextBytes(random);
    return base + "-" + HexFormat.of().formatHex(random);
  }

  private static Path createFolder() {
    try {
      return Files.createTempDirectory(FOLDER_PREFIX);
    } catch (IOException e) {
      throw new UncheckedIOException("Could not create a temporary folder for Lineup", e);
    }
  }

  private static void deleteFolder(Path folder) {
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Could not delete the temporary folder " + folder, e);
    }
  }
}
