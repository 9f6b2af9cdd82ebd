package io.lineup.core.model;

import java.util.List;

/**
 * A page of a list of jobs by state.
 *
 * @param jobs the jobs that matched, in the list's order
 * @param nextCursor where the next page starts (pass it to {@link JobListQuery#after}), or null
 *     when the list (in this order and time range) has no entries after this page
 * @param scanned entries examined for this page; more than {@code jobs.size()} when a filter left
 *     some out
 */
public record JobListPage(List<ListedJob> jobs, String nextCursor, long scanned) {
  /** Keeps an unmodifiable copy of {@code jobs}. */
  public JobListPage {
    jobs = List.copyOf(jobs);
  }
}
