package io.lineup.server.archive;

import io.lineup.api.ErrorCode;
import io.lineup.archive.Archive;
import io.lineup.archive.ArchivePage;
import io.lineup.archive.ArchiveQuery;
import io.lineup.archive.ArchiveSettings;
import io.lineup.archive.ArchiveUnavailableException;
import io.lineup.archive.ArchivedJob;
import io.lineup.core.Lineup;
import io.lineup.core.model.JobInfo;
import io.lineup.core.model.QueueName;
import io.lineup.dispatch.TaskArchive;
import io.lineup.server.http.ApiException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's side of the SQL archive (docs/archive.md): lookups that fall back to the archive
 * when Redis no longer holds a job, the listing, and switching archiving on for a queue before its
 * first publish. Off (every lookup finds nothing in the archive) without {@code
 * LINEUP_ARCHIVE_JDBC_URL}.
 */
public final class JobArchive implements AutoCloseable, TaskArchive {
  private static final Logger LOG = LoggerFactory.getLogger(JobArchive.class);

  private final Lineup lineup;
  private final Archive archive;

  private JobArchive(Lineup lineup, Archive archive) {
    this.lineup = lineup;
    this.archive = archive;
  }

  /** Archiving off. */
  public static JobArchive off(Lineup lineup) {
    return new JobArchive(lineup, null);
  }

  /**
   * Starts archiving every queue of the engine's Redis to the database of {@code settings}; the
   * database need not be reachable yet.
   *
   * @param instanceId this instance's name among the archivers
   */
  public static JobArchive start(Lineup lineup, ArchiveSettings settings, String instanceId) {
    LOG.info(
        "Archiving ended jobs to {} (kept {}; instance {})",
        settings.safeUrl(),
        settings.retention(),
        instanceId);
    return new JobArchive(lineup, Archive.start(lineup, settings, instanceId));
  }

  /** Whether archiving is on. */
  public boolean enabled() {
    return archive != null;
  }

  /** The archive, or null when archiving is off (for metrics). */
  public Archive archive() {
    return archive;
  }

  /**
   * Whether a publish to the queue may skip {@link #beforePublish}: archiving is off, or already on
   * for the queue. Never blocks.
   */
  public boolean readyFor(QueueName queue) {
    return archive == null || archive.archiver().isEnabled(queue);
  }

  /**
   * Switches archiving on for a queue before something is published to it through this server, so
   * that its first jobs are archived too. Does nothing when archiving is off.
   */
  @Override
  public void beforePublish(QueueName queue) {
    if (archive != null) {
      archive.archiver().enable(queue);
    }
  }

  /**
   * The job as Redis holds it, or else as the archive holds it (state, times, error and result as
   * it ended; no position, ETA or lease), or empty when neither has it.
   *
   * @throws ApiException 503 {@code archive_unavailable} when Redis has no record and the archive
   *     database cannot be read
   */
  @Override
  public Optional<JobInfo> find(QueueName queue, String id) {
    Optional<JobInfo> live = lineup.get(queue, id);
    if (live.isPresent() || archive == null) {
      return live;
    }
    try {
      return archive.reader().find(queue, id).map(JobArchive::info);
    } catch (ArchiveUnavailableException e) {
      throw unavailable();
    }
  }

  /**
   * A page of the archive.
   *
   * @throws ApiException 404 when archiving is off, 400 for a bad cursor, 503 {@code
   *     archive_unavailable} when the database cannot be read
   */
  public ArchivePage list(ArchiveQuery query) {
    if (archive == null) {
      throw ApiException.notFound(
          "archiving is off on this server (it is switched on by LINEUP_ARCHIVE_JDBC_URL)");
    }
    try {
      return archive.reader().list(query);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidField("cursor", "is not a cursor of this listing");
    } catch (ArchiveUnavailableException e) {
      throw unavailable();
    }
  }

  private static ApiException unavailable() {
    return new ApiException(
            ErrorCode.ARCHIVE_UNAVAILABLE,
            null,
            "the archive database cannot be read now; retry later")
        .header("Retry-After", "1");
  }

  /** An archived row as the engine's job view, with what only a live job has left empty. */
  static JobInfo info(ArchivedJob job) {
    return new JobInfo(
        job.queue(),
        job.id(),
        job.state(),
        job.payload() == null ? new byte[0] : job.payload(),
        job.priority(),
        job.attempts(),
        job.maxAttempts(),
        (Duration) null,
        job.createdAt(),
        job.dueAt(),
        null,
        job.startedAt(),
        job.finishedAt(),
        null,
        job.lastError(),
        job.result(),
        -1,
        null,
        null);
  }

  /** Stops the archiver and retention and closes the database pool. */
  @Override
  public void close() {
    if (archive != null) {
      archive.close();
    }
  }
}
