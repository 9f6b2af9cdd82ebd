package io.lineup.client;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lineup.api.JobListFields;
import io.lineup.api.resource.JobActionResult;
import io.lineup.api.resource.JobListPage;
import io.lineup.api.resource.ListedJob;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * One queue's jobs listed by state, a page at a time or all of them through an iterator that pages
 * by itself, and the actions on jobs: cancel, delete, run now, respawn, by ids or by filter. Get it
 * from {@link LineupClient#jobs(QueueName)}. Listing takes the {@code manage} or {@code read}
 * scope; cancel and delete by ids {@code publish} or {@code manage}; run now, respawn and every
 * action by filter {@code manage}.
 *
 * <pre>{@code
 * JobsClient jobs = client.jobs(QueueName.of("shop", "emails"));
 * for (ListedJob dead : jobs.list(JobFilter.state("dead").error("timed out"))) {
 *   System.out.println(dead.id() + " " + dead.lastError());
 * }
 * JobActionResult result = jobs.respawnMatching(JobFilter.state("dead").error("timed out"), 12);
 * }</pre>
 *
 * <p>Paging is by cursor (keyset): jobs that stay in their state are neither skipped nor repeated
 * while others come and go. A page examines at most 1,000 entries, so a filter that matches few
 * jobs may answer short or empty pages; the iterator goes on until the list ends.
 */
public final class JobsClient {
  /** Most jobs per page. */
  public static final int MAX_LIMIT = JobListFields.MAX_LIMIT;

  /** The actions; {@link #act} takes their names. */
  public enum Action {
    /** Ready, delayed or leased jobs become cancelled. */
    CANCEL,
    /** Jobs in any state are removed with their records. */
    DELETE,
    /** Delayed jobs join the ready line now, keeping their priority. */
    RUN_NOW,
    /** Dead jobs go back to the line, attempts reset. */
    RESPAWN;

    String wire() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Transport transport;
  private final String base;

  JobsClient(Transport transport, QueueName queue) {
    this.transport = transport;
    Objects.requireNonNull(queue, "queue");
    this.base =
        "/v1/queues/"
            + Transport.segment(queue.namespace())
            + "/"
            + Transport.segment(queue.name())
            + "/jobs";
  }

  /**
   * One page of a list.
   *
   * @param cursor the {@code nextCursor} of the page before, or null for the first page
   * @param limit most jobs, 1 to {@value #MAX_LIMIT}
   * @param descending true to read the list last to first
   * @throws IllegalArgumentException when limit is out of range
   * @throws InvalidRequestException when the server refuses a value (a bad cursor, say)
   */
  public JobListPage page(JobFilter filter, String cursor, int limit, boolean descending) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + "; got " + limit);
    }
    StringBuilder path = new StringBuilder(base).append('?');
    query(path, JobListFields.STATE, filter.state());
    query(path, JobListFields.LIMIT, Integer.toString(limit));
    query(path, JobListFields.ORDER, descending ? "desc" : "asc");
    query(path, JobListFields.CURSOR, cursor);
    query(path, JobListFields.ID_PREFIX, filter.idPrefix());
    query(path, JobListFields.ERROR, filter.error());
    query(
        path,
        JobListFields.FROM,
        filter.from() == null ? null : Long.toString(filter.from().toEpochMilli()));
    query(
        path,
        JobListFields.TO,
        filter.to() == null ? null : Long.toString(filter.to().toEpochMilli()));
    return Json.read(transport.get(path.toString()).body(), JobListPage.class);
  }

  /**
   * Every job of a list in its order, fetched a page of {@value #MAX_LIMIT} at a time as the
   * iteration goes.
   */
  public Iterable<ListedJob> list(JobFilter filter) {
    Objects.requireNonNull(filter, "filter");
    return () -> new PageIterator(filter);
  }

  /** Cancels these jobs (ready, delayed or leased; others are skipped and named). */
  public JobActionResult cancel(List<String> ids) {
    return act(Action.CANCEL, ids);
  }

  /** Deletes these jobs with their records, in any state. */
  public JobActionResult delete(List<String> ids) {
    return act(Action.DELETE, ids);
  }

  /** Runs these delayed jobs now. */
  public JobActionResult runNow(List<String> ids) {
    return act(Action.RUN_NOW, ids);
  }

  /** Puts these dead jobs back in line. */
  public JobActionResult respawn(List<String> ids) {
    return act(Action.RESPAWN, ids);
  }

  /**
   * One action on jobs named by id, 1 to 1,000; each is checked in its own state and skipped, with
   * why, when the action does not take it.
   *
   * @throws ForbiddenException when the token lacks the scope the action takes
   */
  public JobActionResult act(Action action, List<String> ids) {
    ObjectNode body = Json.object();
    body.put(JobListFields.ACTION, action.wire());
    ArrayNode array = body.putArray(JobListFields.IDS);
    ids.forEach(array::add);
    return Json.read(transport.post(base + "/actions", body).body(), JobActionResult.class);
  }

  /** Respawns every dead job a filter matches, once they are {@code expectedCount}. */
  public JobActionResult respawnMatching(JobFilter filter, long expectedCount) {
    return actOnMatching(Action.RESPAWN, filter, expectedCount);
  }

  /**
   * One action on every job a filter matches, once the filter matches exactly {@code expectedCount}
   * jobs (the count a user was shown and confirmed).
   *
   * @throws CountMismatchException when it matches another number (nothing done); {@link
   *     CountMismatchException#count()} says how many
   * @throws InvalidRequestException when the filter matches more than 10,000 jobs
   * @throws ForbiddenException when the token lacks the {@code manage} scope
   */
  public JobActionResult actOnMatching(Action action, JobFilter filter, long expectedCount) {
    ObjectNode body = Json.object();
    body.put(JobListFields.ACTION, action.wire());
    ObjectNode f = body.putObject(JobListFields.FILTER);
    f.put(JobListFields.STATE, filter.state());
    if (filter.idPrefix() != null) {
      f.put(JobListFields.ID_PREFIX, filter.idPrefix());
    }
    if (filter.error() != null) {
      f.put(JobListFields.ERROR, filter.error());
    }
    if (filter.from() != null) {
      f.put(JobListFields.FROM, filter.from().toEpochMilli());
    }
    if (filter.to() != null) {
      f.put(JobListFields.TO, filter.to().toEpochMilli());
    }
    body.put(JobListFields.EXPECTED_COUNT, expectedCount);
    return Json.read(transport.post(base + "/actions", body).body(), JobActionResult.class);
  }

  private static void query(StringBuilder path, String name, String value) {
    if (value == null) {
      return;
    }
    if (path.charAt(path.length() - 1) != '?') {
      path.append('&');
    }
    path.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
  }

  /** Walks the pages of a list, fetching the next when the current one is used up. */
  private final class PageIterator implements Iterator<ListedJob> {
    private final JobFilter filter;
    private Iterator<ListedJob> current = List.<ListedJob>of().iterator();
    private String cursor;
    private boolean ended;

    PageIterator(JobFilter filter) {
      this.filter = filter;
    }

    @Override
    public boolean hasNext() {
      // A filtered page may be empty with a cursor to go on from: fetch until a job or the end.
      while (!current.hasNext() && !ended) {
        JobListPage page = page(filter, cursor, MAX_LIMIT, false);
        current = page.jobs().iterator();
        cursor = page.nextCursor();
        ended = cursor == null;
      }
      return current.hasNext();
    }

    @Override
    public ListedJob next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.next();
    }
  }
}
