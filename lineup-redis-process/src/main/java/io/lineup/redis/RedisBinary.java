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
 * org.signal:embedded-redis}, extracted once into the temporary folder. The bundled binary is the
 * default so that a machine without Redis installed still runs the server and the tests.
 */
public final class RedisBinary {
  /** Version of the Redis binary bundled with {@code org.signal:embedded-redis}. */
  public static final String BUNDLED_VERSION = "7.0.15";

  private RedisBinary() {}

  /**
   * Returns the path of a runnable {@code redis-server}.
   *
   * @throws IllegalStateException when the configured path is not executable, or no bundled binary
   *     exists for this operating system and architecture
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
   * The bundled Redis 7.0.15 binary, extracted on first use, whatever {@code LINEUP_REDIS_SERVER}
   * says. It is built with the C library's allocator rather than jemalloc (the allocator release
   * builds of Redis use), which makes allocation-heavy commands slower.
   *
   * @throws IllegalStateException when no bundled binary exists for this platform
   */
  public static synchronized Path bundled() {
    return extractBundled();
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
    String resource = "redis-server-" + BUNDLED_VERSION + "-" + platform();
    Path target =
        Path.of(System.getProperty("java.io.tmpdir"), "lineup-redis-" + BUNDLED_VERSION, resource);
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
      // half-written binary.
      Path partial = Files.createTempFile(target.getParent(), resource, ".part");
      Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(partial, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.move(
          partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new IllegalStateException("Could not extract the bundled redis-server to " + target, e);
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
