package io.lineup.core.model;

/**
 * What the Redis server says about itself, for start-up checks that warn about settings that can
 * lose jobs or cost memory.
 *
 * @param version e.g. {@code 7.0.15}
 * @param mode {@code standalone}, {@code sentinel} or {@code cluster}
 * @param maxmemoryPolicy e.g. {@code noeviction}; null when CONFIG GET is not allowed
 * @param appendOnly whether the append-only file is on
 * @param snapshots whether RDB snapshots are configured ({@code save} not empty); null when unknown
 * @param listpackValueBytes {@code hash-max-listpack-value} in bytes: the largest value Redis keeps
 *     in a hash's compact form; null when CONFIG GET is not allowed
 */
public record RedisServerInfo(
    String version,
    String mode,
    String maxmemoryPolicy,
    boolean appendOnly,
    Boolean snapshots,
    Integer listpackValueBytes) {

  /**
   * The {@code hash-max-listpack-value} at which waiting jobs with payloads up to about 115 bytes
   * are stored compactly (docs/engine.md, data layout).
   */
  public static final int RECOMMENDED_LISTPACK_VALUE_BYTES = 128;

  /** Whether Redis may evict keys under memory pressure, which would lose jobs. */
  public boolean mayEvict() {
    return maxmemoryPolicy != null && !"noeviction".equals(maxmemoryPolicy);
  }

  /**
   * Whether {@code hash-max-listpack-value} is known to be below {@link
   * #RECOMMENDED_LISTPACK_VALUE_BYTES}, so that waiting jobs with payloads between about 50 and 115
   * bytes take about 45 bytes more each.
   */
  public boolean listpackValueBelowRecommended() {
    return listpackValueBytes != null && listpackValueBytes < RECOMMENDED_LISTPACK_VALUE_BYTES;
  }

  /** Whether nothing is persisted, so a Redis restart loses every job. */
  public boolean persistsNothing() {
    return !appendOnly && Boolean.FALSE.equals(snapshots);
  }
}
