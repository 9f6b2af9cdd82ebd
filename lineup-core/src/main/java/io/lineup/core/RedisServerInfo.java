package io.lineup.core;

/**
 * What the Redis server says about itself, for start-up checks that warn about settings that can
 * lose jobs.
 *
 * @param version e.g. {@code 7.0.15}
 * @param mode {@code standalone}, {@code sentinel} or {@code cluster}
 * @param maxmemoryPolicy e.g. {@code noeviction}; null when CONFIG GET is not allowed
 * @param appendOnly whether the append-only file is on
 * @param snapshots whether RDB snapshots are configured ({@code save} not empty); null when unknown
 */
public record RedisServerInfo(
    String version, String mode, String maxmemoryPolicy, boolean appendOnly, Boolean snapshots) {

  /** Whether Redis may evict keys under memory pressure, which would lose jobs. */
  public boolean mayEvict() {
    return maxmemoryPolicy != null && !"noeviction".equals(maxmemoryPolicy);
  }

  /** Whether nothing is persisted, so a Redis restart loses every job. */
  public boolean persistsNothing() {
    return !appendOnly && Boolean.FALSE.equals(snapshots);
  }
}
