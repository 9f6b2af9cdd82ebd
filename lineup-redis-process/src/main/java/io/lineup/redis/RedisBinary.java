package io.lineup.redis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds the {@code redis-server} executable to run.
 *
 * <p>Order: the {@code LINEUP_REDIS_SERVER} environment variable or {@code lineup.redis.server}
 * system property (a path), then the Redis 7.0.15 binary bundled in {@code
 * org.signal:embedded-redis}. The bundled binary is the default so that a machine without Redis
 * installed still runs the server and the tests.
 *
 * <p>The bundled binary is unpacked once into the user's cache folder ({@link #cacheFolder()}),
 * under {@code redis-7.0.15/}, and reused by every later run on purpose: the server, the tests and
 * the benchmark all find it there. It is never unpacked into the temporary folder, where it would
 * outlive the run that unpacked it without anybody owning it. Deleting the folder is always safe;
 * the next run unpacks the binary again.
 */
public final class RedisBinary {
  /** Version of the Redis binary bundled with {@code org.signal:embedded-redis}. */
  public static final String BUNDLED_VERSION = "7.0.15";

  /** Environment variable naming the cache folder; {@code lineup.cache.dir} is its property. */
  public static final String CACHE_DIR_VARIABLE = "LINEUP_CACHE_DIR";

  /** Name of Lineup's folder inside {@code $XDG_CACHE_HOME} or {@code ~/.cache}. */
  public static final String CACHE_FOLDER_NAME = "lineup";

  private RedisBinary() {}

  /**
   * Returns the path of a runnable {@code redis-server}.
   *
   * @throws IllegalStateException when the configured path is not executable, no bundled binary
   *     exists for this operating system and architecture, or the cache folder cannot be written
   */
  public static synchronized Path locate() {
    return configured().orElseGet(RedisBinary::extractBundled);
  }

  /**
   * The binary {@code LINEUP_REDIS_SERVER} (or {@code lineup.redis.server}) names, if one is set.
   *
   * @throws IllegalStateException when the named file is not executable
   */
  public static Optional<Path> configured() {
    String configured =
        System.getProperty("lineup.redis.server", System.getenv("LINEUP_REDIS_SERVER"));
    if (configured == null || configured.isBlank()) {
      return Optional.empty();
    }
    Path path = Path.of(configured);
    if (!Files.isExecutable(path)) {
      throw new IllegalStateException(
          "LINEUP_REDIS_SERVER points at " + path + ", which is not an executable file");
    }
    return Optional.of(path);
  }

  /**
   * The bundled Redis 7.0.15 binary, unpacked into {@link #cacheFolder()} on first use, whatever
   * {@code LINEUP_REDIS_SERVER} says. It is built with the C library's allocator rather than
   * jemalloc (the allocator release builds of Redis use), which makes allocation-heavy commands
   * slower.
   *
   * @throws IllegalStateException when no bundled binary exists for this platform, or the cache
   *     folder cannot be written
   */
  public static synchronized Path bundled() {
    return extractBundled();
  }

  /**
   * The folder where Lineup keeps files it reuses between runs, such as the unpacked bundled
   * redis-server: {@code LINEUP_CACHE_DIR} (or the {@code lineup.cache.dir} system property) when
   * set, else {@code $XDG_CACHE_HOME/lineup}, else {@code ~/.cache/lineup}. It is created on first
   * use.
   */
  public static Path cacheFolder() {
    return cacheFolder(
        System.getProperty("lineup.cache.dir", System.getenv(CACHE_DIR_VARIABLE)),
        System.getenv("XDG_CACHE_HOME"),
        System.getProperty("user.home"));
  }

  /**
   * The cache folder for these values of {@code LINEUP_CACHE_DIR}, {@code XDG_CACHE_HOME} and the
   * home folder; a blank or relative {@code XDG_CACHE_HOME} is ignored, as the XDG specification
   * asks.
   */
  static Path cacheFolder(String configured, String xdgCacheHome, String userHome) {
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured.trim()).toAbsolutePath();
    }
    if (xdgCacheHome != null && !xdgCacheHome.isBlank() && Path.of(xdgCacheHome).isAbsolute()) {
      return Path.of(xdgCacheHome, CACHE_FOLDER_NAME);
    }
    return Path.of(userHome, ".cache", CACHE_FOLDER_NAME);
  }

  /** A {@code redis-server} executable on the {@code PATH}, if there is one. */
  public static Optional<Path> installed() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (dir.isBlank()) {
        continue;
      }
      Path candidate = Path.of(dir, "redis-server");
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  private static Path extractBundled() {
    return extractBundled(cacheFolder());
  }

  /**
   * Unpacks the bundled binary under {@code cache} unless an earlier run already did, and returns
   * its path.
   *
   * @throws IllegalStateException when no bundled binary exists for this platform, or the folder
   *     cannot be written
   */
  static Path extractBundled(Path cache) {
    String resource = "redis-server-" + BUNDLED_VERSION + "-" + platform();
    Path target = cache.resolve("redis-" + BUNDLED_VERSION).resolve(resource);
    if (Files.isExecutable(target)) {
      return target;
    }
    try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "No bundled redis-server for "
                + platform()
                + "; install Redis and set LINEUP_REDIS_SERVER to its redis-server");
      }
      Files.createDirectories(target.getParent());
      // Copy to a unique file first, then move into place, so concurrent JVMs never run a
      // half-written binary; a copy that failed half-way is removed rather than left behind.
      Path partial = Files.createTempFile(target.getParent(), resource, ".part");
      try {
        Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(
            partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(partial);
      }
      return target;
    } catch (IOException e) {
      throw new IllegalStateException(
          "Could not unpack the bundled redis-server to "
              + target
              + "; set "
              + CACHE_DIR_VARIABLE
              + " to a writable folder, or LINEUP_REDIS_SERVER to an installed redis-server",
          e);
    }
  }

  private static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    String osPart = os.contains("mac") ? "darwin" : "linux";
    String archPart =
        switch (arch) {
          case "amd64", "x86_64" -> "amd64";
          case "aarch64", "arm64" -> "arm64";
          case "x86", "i386", "i686" -> "386";
          default -> arch;
        };
    return osPart + "-" + archPart;
  }
}
