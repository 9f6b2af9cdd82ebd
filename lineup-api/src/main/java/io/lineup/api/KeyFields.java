package io.lineup.api;

import java.util.Set;

/**
 * The JSON names of a fairness key's settings in a {@code PUT /v1/queues/{ns}/{queue}/keys/{key}}
 * body, as the server reads them; the key's view ({@link io.lineup.api.resource.FairKey}) writes
 * the same names under {@code own} and {@code effective}. An absent value takes the queue's {@code
 * key_*} setting (weight: 1).
 */
public final class KeyFields {
  /** The key's share of each turn, 1 to 100 (a key of weight w gets w jobs to another's 1). */
  public static final String WEIGHT = "weight";

  /** Most jobs of the key leased at once; 0 = no limit. */
  public static final String CONCURRENCY = "concurrency";

  /** Most leases of the key per {@link #RATE_PERIOD_MS}; 0 = no limit. */
  public static final String RATE = "rate";

  /** The period of {@link #RATE}, in milliseconds (10 ms to a day). */
  public static final String RATE_PERIOD_MS = "rate_period_ms";

  /** Most jobs of the key waiting; a publish past it is refused ({@code key_backlog_full}). */
  public static final String MAX_WAITING = "max_waiting";

  /** Whether the key is paused: its jobs are not leased, other keys' are. */
  public static final String PAUSED = "paused";

  /** The query parameter that ranks the keys of {@code GET …/keys}: {@link #BY_VALUES}. */
  public static final String BY = "by";

  /** The values of {@link #BY}. */
  public static final Set<String> BY_VALUES = Set.of("waiting", "leased");

  /** The query parameter of how many keys {@code GET …/keys} answers. */
  public static final String LIMIT = "limit";

  /** Keys {@code GET …/keys} answers when no {@link #LIMIT} is given. */
  public static final int DEFAULT_LIMIT = 20;

  /** Most keys {@code GET …/keys} answers. */
  public static final int MAX_LIMIT = 1000;

  /** Every field of a key's settings body. */
  public static final Set<String> ALL =
      Set.of(WEIGHT, CONCURRENCY, RATE, RATE_PERIOD_MS, MAX_WAITING, PAUSED);

  private KeyFields() {}
}
