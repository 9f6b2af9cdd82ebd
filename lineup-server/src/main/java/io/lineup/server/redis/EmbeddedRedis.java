package io.lineup.server.redis;

import io.lineup.redis.RedisProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis the server runs itself when no {@code LINEUP_REDIS_URL} is given: the bundled
 * redis-server on 127.0.0.1 (a free port), with the append-only file on ({@code appendfsync
 * everysec}) and its data under {@code <data folder>/}{@value #FOLDER}, so jobs survive a restart.
 *
 * <p>A redis-server left running on the same folder by a server that was killed is stopped first
 * (it is found by its pid file), so two processes never write the same append-only file.
 */
public final class EmbeddedRedis implements AutoCloseable {
  /** The folder under the data folder that holds Redis's files. */
  public static final String FOLDER = "redis";

  /** The pid file Redis writes in its folder. */
  public static final String PID_FILE = "redis.pid";

  /** How long a left-over redis-server gets to stop before it is killed. */
  public static final Duration LEFTOVER_STOP_TIMEOUT = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRedis.class);

  private final RedisProcess process;
  private final Path folder;

  private EmbeddedRedis(RedisProcess process, Path folder) {
    this.process = process;
    this.folder = folder;
  }

  /**
   * Starts Redis with its data under {@code dataDir}.
   *
   * @throws IllegalStateException when redis-server cannot be started
   */
  public static EmbeddedRedis start(Path dataDir) {
    Path folder = dataDir.resolve(FOLDER).toAbsolutePath().normalize();
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create the Redis data folder " + folder, e);
    }
    stopLeftover(folder);
    RedisProcess process =
        RedisProcess.builder()
            .dataDir(folder)
            .appendOnly(true)
            .setting("appendfsync", "everysec")
            .setting("maxmemory-policy", "noeviction")
            .setting("pidfile", folder.resolve(PID_FILE).toString())
            .build()
            .start();
    return new EmbeddedRedis(process, folder);
  }

  /** {@code redis://127.0.0.1:PORT}. */
  public String uri() {
    return process.uri();
  }

  /** The folder holding the append-only file. */
  public Path folder() {
    return folder;
  }

  /** The one log line that says the server runs its own Redis and how to use another. */
  public String announcement() {
    return "Running an embedded Redis (redis-server on "
        + process.uri()
        + ", append-only file on) with its data under "
        + folder
        + "; jobs survive restarts. To use your own Redis instead, set LINEUP_REDIS_URL (e.g."
        + " LINEUP_REDIS_URL=redis://host:6379) or --redis-url.";
  }

  /** Stops Redis gracefully (the append-only file is flushed). */
  @Override
  public void close() {
    process.stop();
  }

  private static void stopLeftover(Path folder) {
    Path pidFile = folder.resolve(PID_FILE);
    Optional<ProcessHandle> leftover = readPid(pidFile).flatMap(ProcessHandle::of);
    if (leftover.isEmpty() || !leftover.get().isAlive() || !isRedis(leftover.get())) {
      return;
    }
    ProcessHandle handle = leftover.get();
    LOG.warn(
        "A redis-server (pid {}) left by an earlier run still uses {}; stopping it before starting"
            + " a new one",
        handle.pid(),
        folder);
    handle.destroy();
    try {
      handle.onExit().get(LEFTOVER_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception notYet) {
      handle.destroyForcibly();
      try {
        handle.onExit().get(LEFTOVER_STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        throw new IllegalStateException(
            "A redis-server (pid " + handle.pid() + ") using " + folder + " would not stop", e);
      }
    }
  }

  private static Optional<Long> readPid(Path pidFile) {
    try {
      if (!Files.exists(pidFile)) {
        return Optional.empty();
      }
      return Optional.of(
          Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static boolean isRedis(ProcessHandle handle) {
    return handle.info().command().map(command -> command.contains("redis-server")).orElse(false);
  }
}
