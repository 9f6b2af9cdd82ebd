package io.lineup.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bundled redis-server is unpacked once into a cache folder that every later run reuses. */
class RedisBinaryTest {

  @Test
  void theBundledBinaryIsUnpackedIntoTheCacheFolderOnceAndThenReused(@TempDir Path cache)
      throws IOException {
    Path binary = RedisBinary.extractBundled(cache);

    assertThat(binary)
        .startsWith(cache.resolve("redis-" + RedisBinary.BUNDLED_VERSION))
        .isExecutable();
    // A later run must find this very file rather than unpack another copy.
    FileTime marked = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
    Files.setLastModifiedTime(binary, marked);
    assertThat(RedisBinary.extractBundled(cache)).isEqualTo(binary);
    assertThat(Files.getLastModifiedTime(binary)).isEqualTo(marked);
    try (Stream<Path> files = Files.list(binary.getParent())) {
      assertThat(files).as("no half-written copy is left beside it").containsExactly(binary);
    }
  }

  @Test
  void theCacheFolderIsLineupCacheDirElseXdgCacheHomeElseTheHomeCache() {
    assertThat(RedisBinary.cacheFolder("/srv/lineup-cache", "/xdg", "/home/ada"))
        .isEqualTo(Path.of("/srv/lineup-cache"));
    assertThat(RedisBinary.cacheFolder(null, "/xdg", "/home/ada"))
        .isEqualTo(Path.of("/xdg/lineup"));
    assertThat(RedisBinary.cacheFolder(" ", "", "/home/ada"))
        .isEqualTo(Path.of("/home/ada/.cache/lineup"));
    assertThat(RedisBinary.cacheFolder(null, "relative/xdg", "/home/ada"))
        .as("a relative XDG_CACHE_HOME is ignored")
        .isEqualTo(Path.of("/home/ada/.cache/lineup"));
  }
}
