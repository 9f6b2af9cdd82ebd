package io.lineup.core.model;

import java.time.Duration;

/**
 * How many Redis replicas must hold a publish before it is answered: after the publish script, the
 * engine sends {@code WAIT replicas timeout} to the Redis server (in a Cluster, the master of the
 * queue's slot) on the connection that wrote the jobs. On Redis 7.2 or newer with the append-only
 * file on, it also waits ({@code WAITAOF 1 0 timeout}) until that server has written them to its
 * disk. Redis 7.0 has only {@code WAIT}: replicas have received the jobs, not necessarily written
 * them to disk.
 *
 * <p>A job acknowledged this way survives the loss of the master when a replica that acknowledged
 * it is the one promoted. When fewer replicas acknowledge within the timeout, the publish throws
 * {@link ReplicationTimeoutException}: the jobs were written all the same.
 *
 * @param replicas replicas that must acknowledge, 0 (answer at once) to {@value #MAX_REPLICAS}
 * @param timeout longest wait for them, {@link #MIN_TIMEOUT} to {@link #MAX_TIMEOUT}
 */
public record Durability(int replicas, Duration timeout) {
  /** Most replicas a publish may wait for. */
  public static final int MAX_REPLICAS = 100;

  /** Shortest wait for the replicas. */
  public static final Duration MIN_TIMEOUT = Duration.ofMillis(1);

  /** Longest wait for the replicas. */
  public static final Duration MAX_TIMEOUT = Duration.ofSeconds(60);

  /** The wait when none is named, also for the queue setting {@code durableReplicas}. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

  /** Answer as soon as the master has the jobs, whatever the queue's setting. */
  public static final Durability NONE = new Durability(0, DEFAULT_TIMEOUT);

  /**
   * Wait for {@code replicas} replicas, at most {@link #DEFAULT_TIMEOUT}.
   *
   * @throws InvalidArgumentException when {@code replicas} is outside 0 to {@value #MAX_REPLICAS}
   */
  public static Durability replicas(int replicas) {
    return new Durability(replicas, DEFAULT_TIMEOUT);
  }

  /**
   * @throws InvalidArgumentException when a value is out of range (field {@code
   *     durability.replicas} or {@code durability.timeout})
   */
  public Durability {
    if (replicas < 0 || replicas > MAX_REPLICAS) {
      throw new InvalidArgumentException(
          "durability.replicas", "must be 0 to " + MAX_REPLICAS + ", got " + replicas);
    }
    if (timeout == null
        || timeout.compareTo(MIN_TIMEOUT) < 0
        || timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw new InvalidArgumentException(
          "durability.timeout", "must be 1 ms to 60 s, got " + timeout);
    }
  }

  /** The same replicas with another longest wait ({@link #MIN_TIMEOUT} to {@link #MAX_TIMEOUT}). */
  public Durability within(Duration timeout) {
    return new Durability(replicas, timeout);
  }
}
