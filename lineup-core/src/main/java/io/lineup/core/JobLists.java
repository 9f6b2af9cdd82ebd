package io.lineup.core;

import io.lineup.core.internal.store.RedisStore;
import io.lineup.core.internal.store.ScriptReplies.ActOutcome;
import io.lineup.core.internal.store.ScriptReplies.JobsListReply;
import io.lineup.core.model.CountMismatchException;
import io.lineup.core.model.InvalidArgumentException;
import io.lineup.core.model.JobAction;
import io.lineup.core.model.JobActionResult;
import io.lineup.core.model.JobListPage;
import io.lineup.core.model.JobListQuery;
import io.lineup.core.model.Limits;
import io.lineup.core.model.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lists a queue's jobs by state, a page at a time, and acts on jobs by id or by filter. */
final class JobLists {
  /** Most jobs one action by filter acts on; a filter matching more is refused. */
  static final int MAX_MATCHING = 10_000;

  /** Most entries an action by filter examines to count its matches. */
  static final int MAX_MATCH_SCAN = 100_000;

  private final RedisStore store;

  JobLists(Engine engine) {
    this.store = engine.store();
  }

  JobListPage list(QueueName queue, JobListQuery query) {
    return page(queue, query, query.limit(), JobListQuery.SCAN_PER_PAGE);
  }

  private JobListPage page(QueueName queue, JobListQuery query, int limit, int scan) {
    check(query);
    JobCursor cursor =
        query.cursor() == null
            ? null
            : JobCursor.decode(query.cursor(), query.list(), query.descending());
    JobsListReply reply =
        store.jobsList(
            queue,
            query.list().wireName(),
            query.descending(),
            cursor == null ? null : cursor.score(),
            cursor == null ? null : cursor.id(),
            limit,
            scan,
            query.idPrefix(),
            query.errorContains(),
            millis(query.from()),
            millis(query.to()));
    String next =
        reply.more() && reply.lastId() != null
            ? new JobCursor(query.list(), query.descending(), reply.lastScore(), reply.lastId())
                .encode()
            : null;
    return new JobListPage(reply.jobs(), next, reply.scanned());
  }

  JobActionResult act(QueueName queue, JobAction action, List<String> ids, Duration ttl) {
    if (action == null) {
      throw new InvalidArgumentException("action", "must be given");
    }
    if (ids == null || ids.isEmpty() || ids.size() > Limits.MAX_BATCH) {
      throw new InvalidArgumentException("ids", "give 1 to " + Limits.MAX_BATCH + " job ids");
    }
    ids.forEach(Checks::id);
    Checks.duration("ttl", ttl, 1, Limits.MAX_TTL_MS);
    List<ActOutcome> outcomes = store.jobsAct(queue, action.wireName(), ttl, ids);
    long done = 0;
    List<JobActionResult.Skipped> skipped = new ArrayList<>();
    for (int i = 0; i < outcomes.size(); i++) {
      ActOutcome outcome = outcomes.get(i);
      if (outcome.done()) {
        done++;
      } else {
        String reason =
            outcome.before() == null
                ? "not_found"
                : "state_" + outcome.before().name().toLowerCase(Locale.ROOT);
        skipped.add(new JobActionResult.Skipped(ids.get(i), reason));
      }
    }
    return new JobActionResult(action, ids.size(), done, skipped);
  }

  /**
   * Acts on every job the query's filter matches (its cursor and limit ignored), once their count
   * is the one the caller expects: the ids are gathered page by page, then acted on in batches.
   */
  JobActionResult actOnMatching(
      QueueName queue, JobAction action, JobListQuery query, long expected, Duration ttl) {
    if (expected < 0) {
      throw new InvalidArgumentException("expected_count", "must not be negative");
    }
    List<String> ids = matching(queue, query.after(null));
    if (ids.size() != expected) {
      throw new CountMismatchException(expected, ids.size());
    }
    long done = 0;
    List<JobActionResult.Skipped> skipped = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += Limits.MAX_BATCH) {
      List<String> batch = ids.subList(from, Math.min(ids.size(), from + Limits.MAX_BATCH));
      JobActionResult part = act(queue, action, batch, ttl);
      done += part.done();
      skipped.addAll(part.skipped());
    }
    return new JobActionResult(action, ids.size(), done, skipped);
  }

  /** The ids of every job a query matches, at most {@link #MAX_MATCHING}. */
  private List<String> matching(QueueName queue, JobListQuery query) {
    List<String> ids = new ArrayList<>();
    long scanned = 0;
    JobListQuery next = query;
    while (true) {
      JobListPage page = page(queue, next, JobListQuery.MAX_LIMIT, JobListQuery.SCAN_PER_PAGE);
      page.jobs().forEach(job -> ids.add(job.id()));
      scanned += page.scanned();
      if (ids.size() > MAX_MATCHING) {
        throw new InvalidArgumentException(
            "filter",
            "matches more than " + MAX_MATCHING + " jobs; narrow it, or act on ids page by page");
      }
      if (page.nextCursor() == null) {
        return ids;
      }
      if (scanned >= MAX_MATCH_SCAN) {
        throw new InvalidArgumentException(
            "filter",
            "needs more than "
                + MAX_MATCH_SCAN
                + " entries examined to count its jobs; narrow it (a time range is cheap)");
      }
      next = next.after(page.nextCursor());
    }
  }

  private static void check(JobListQuery query) {
    if (query.limit() < 1 || query.limit() > JobListQuery.MAX_LIMIT) {
      throw new InvalidArgumentException(
          "limit", "must be between 1 and " + JobListQuery.MAX_LIMIT + ", got " + query.limit());
    }
    filterText("id_prefix", query.idPrefix());
    filterText("error", query.errorContains());
    if (query.from() != null && query.to() != null && query.from().isAfter(query.to())) {
      throw new InvalidArgumentException("from", "must not be after to");
    }
  }

  private static void filterText(String field, String text) {
    if (text != null && (text.isEmpty() || text.length() > JobListQuery.MAX_FILTER_CHARS)) {
      throw new InvalidArgumentException(
          field, "must be 1 to " + JobListQuery.MAX_FILTER_CHARS + " characters");
    }
  }

  private static Long millis(Instant time) {
    return time == null ? null : time.toEpochMilli();
  }
}
