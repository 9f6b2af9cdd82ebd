package io.lineup.api;

import java.util.Set;

/**
 * The JSON and query names of the job lists by state ({@code GET /v1/queues/{ns}/{queue}/jobs}) and
 * of the actions on jobs ({@code POST /v1/queues/{ns}/{queue}/jobs/actions}), as the server reads
 * them and the client and CLI send them.
 */
public final class JobListFields {
  /** Query: the list, one of {@link #STATES}. */
  public static final String STATE = "state";

  /** The lists: each a state, {@code finished} holding done, cancelled and expired records. */
  public static final Set<String> STATES = Set.of("ready", "delayed", "leased", "dead", "finished");

  /** Query: the {@code next_cursor} of the page before; absent for the first page. */
  public static final String CURSOR = "cursor";

  /** Query: most jobs per page, 1 to {@link #MAX_LIMIT}. */
  public static final String LIMIT = "limit";

  /** Jobs per page when no {@link #LIMIT} is given. */
  public static final int DEFAULT_LIMIT = 20;

  /** Most jobs per page. */
  public static final int MAX_LIMIT = 100;

  /** Query: {@code asc} (the list's order, the default) or {@code desc}. */
  public static final String ORDER = "order";

  /** Query and filter field: the text a job's id starts with. */
  public static final String ID_PREFIX = "id_prefix";

  /** Query and filter field: text the job's last error contains (case-sensitive). */
  public static final String ERROR = "error";

  /**
   * Query and filter field: the earliest time, epoch ms, of the list's sort time (due, lease
   * deadline, death, finish) or, for {@code ready}, of the creation time.
   */
  public static final String FROM = "from";

  /** Query and filter field: the latest time (inclusive), epoch ms, as {@link #FROM}. */
  public static final String TO = "to";

  /** Body: the action, one of {@link #ACTIONS}. */
  public static final String ACTION = "action";

  /** The actions. */
  public static final Set<String> ACTIONS = Set.of("cancel", "delete", "run_now", "respawn");

  /** Body: the jobs' ids, 1 to 1,000. */
  public static final String IDS = "ids";

  /**
   * Body: instead of {@link #IDS}, a filter (an object of {@link #STATE}, {@link #ID_PREFIX},
   * {@link #ERROR}, {@link #FROM}, {@link #TO}) whose every matching job is acted on.
   */
  public static final String FILTER = "filter";

  /** Body, with {@link #FILTER}: how many jobs the caller was shown; another count is refused. */
  public static final String EXPECTED_COUNT = "expected_count";

  /** Body, for {@code respawn}: a fresh time-to-live in ms from now (optional). */
  public static final String TTL_MS = "ttl_ms";

  private JobListFields() {}
}
