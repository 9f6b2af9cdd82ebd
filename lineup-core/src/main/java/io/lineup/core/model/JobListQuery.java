package io.lineup.core.model;

import java.time.Instant;
import java.util.Objects;

/**
 * What to list of a queue's jobs ({@code Lineup.listJobs}): one state's list, a page of it after a
 * cursor, in either order, optionally filtered. Immutable; start from {@link #of(JobList)} and
 * change one thing at a time.
 *
 * <pre>{@code
 * JobListQuery q = JobListQuery.of(JobList.DEAD).errorContains("timeout").limit(50);
 * }</pre>
 *
 * @param list the state's list
 * @param cursor where the page starts: the {@code nextCursor} of the page before, or null for the
 *     first page
 * @param limit most jobs in the page, 1 to {@value #MAX_LIMIT}
 * @param descending true to read the list last to first
 * @param idPrefix the text a job's id must start with, or null for any
 * @param errorContains text the job's last error must contain (case-sensitive), or null for any
 * @param from the earliest time, or null: the list's sort time (due time, lease deadline, death,
 *     finish) or, for {@link JobList#READY}, the creation time
 * @param to the latest time (inclusive), or null, of the same
 */
public record JobListQuery(
    JobList list,
    String cursor,
    int limit,
    boolean descending,
    String idPrefix,
    String errorContains,
    Instant from,
    Instant to) {
  /** Jobs per page when none is asked for. */
  public static final int DEFAULT_LIMIT = 20;

  /** Most jobs per page. */
  public static final int MAX_LIMIT = 100;

  /**
   * Most entries one page examines: a filter that matches few jobs answers a shorter page (maybe
   * none) and a cursor to go on from, rather than scanning a long list through.
   */
  public static final int SCAN_PER_PAGE = 1000;

  /** Longest id prefix and error text a filter takes, in characters. */
  public static final int MAX_FILTER_CHARS = 256;

  /** Requires a list. */
  public JobListQuery {
    Objects.requireNonNull(list, "list");
  }

  /** The first page of {@code list}, in its order, {@value #DEFAULT_LIMIT} jobs, no filter. */
  public static JobListQuery of(JobList list) {
    return new JobListQuery(list, null, DEFAULT_LIMIT, false, null, null, null, null);
  }

  /** The same after a page's {@code nextCursor} (null: from the start). */
  public JobListQuery after(String nextCursor) {
    return new JobListQuery(list, nextCursor, limit, descending, idPrefix, errorContains, from, to);
  }

  /** The same with at most {@code n} jobs per page. */
  public JobListQuery limit(int n) {
    return new JobListQuery(list, cursor, n, descending, idPrefix, errorContains, from, to);
  }

  /** The same read last to first when {@code descending} is true. */
  public JobListQuery descending(boolean descending) {
    return new JobListQuery(list, cursor, limit, descending, idPrefix, errorContains, from, to);
  }

  /** The same keeping only ids that start with {@code prefix} (null: any). */
  public JobListQuery idPrefix(String prefix) {
    return new JobListQuery(list, cursor, limit, descending, prefix, errorContains, from, to);
  }

  /** The same keeping only jobs whose last error contains {@code text} (null: any). */
  public JobListQuery errorContains(String text) {
    return new JobListQuery(list, cursor, limit, descending, idPrefix, text, from, to);
  }

  /** The same keeping only jobs whose time is between {@code from} and {@code to} (either null). */
  public JobListQuery between(Instant from, Instant to) {
    return new JobListQuery(list, cursor, limit, descending, idPrefix, errorContains, from, to);
  }
}
