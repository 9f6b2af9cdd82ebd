package io.lineup.archive;

import java.util.concurrent.atomic.AtomicLong;

/** Counters of this instance's archiving, for metrics: all since the archive started. */
public final class ArchiveStats {
  private final AtomicLong rowsWritten = new AtomicLong();
  private final AtomicLong retentionDeleted = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();

  /** Rows this instance upserted (an entry written twice after a crash counts twice). */
  public long rowsWritten() {
    return rowsWritten.get();
  }

  /** Rows this instance's retention deleted. */
  public long retentionDeleted() {
    return retentionDeleted.get();
  }

  /** Failed rounds: the database or Redis refused or did not answer. */
  public long errors() {
    return errors.get();
  }

  /** Transactions this instance committed. */
  public long batches() {
    return batches.get();
  }

  void written(int rows) {
    rowsWritten.addAndGet(rows);
    batches.incrementAndGet();
  }

  void deleted(long rows) {
    retentionDeleted.addAndGet(rows);
  }

  void failed() {
    errors.incrementAndGet();
  }
}
