-- Lineup's archive of ended jobs and task results (MySQL 8.0 or newer, MariaDB 10.6 or newer).
-- One row per job, keyed by namespace, queue and job id; times are epoch milliseconds (UTC).
-- Job ids compare byte by byte (utf8mb4_bin), as Redis does: "a" and "A" are two jobs.
CREATE TABLE lineup_archive (
  namespace    VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  queue        VARCHAR(64)  CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  id           VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  state        VARCHAR(16)  CHARACTER SET ascii NOT NULL,
  priority     INT          NOT NULL,
  attempts     INT          NOT NULL,
  max_attempts INT          NOT NULL,
  created_ms   BIGINT       NOT NULL,
  due_ms       BIGINT       NULL,
  started_ms   BIGINT       NULL,
  finished_ms  BIGINT       NOT NULL,
  archived_ms  BIGINT       NOT NULL,
  last_error   MEDIUMTEXT   CHARACTER SET utf8mb4 NULL,
  result       LONGBLOB     NULL,
  payload      LONGBLOB     NULL,
  PRIMARY KEY (namespace, queue, id),
  -- Retention deletes the oldest rows in small batches by this index.
  INDEX lineup_archive_finished (finished_ms),
  -- Listing a namespace newest first, with a cursor of (finished_ms, queue, id).
  INDEX lineup_archive_listing (namespace, finished_ms, queue, id)
) ENGINE = InnoDB;
