-- Lineup's archive of ended jobs and task results (PostgreSQL 12 or newer).
-- One row per job, keyed by namespace, queue and job id; times are epoch milliseconds (UTC).
CREATE TABLE lineup_archive (
  namespace    VARCHAR(64)  NOT NULL,
  queue        VARCHAR(64)  NOT NULL,
  id           VARCHAR(128) NOT NULL,
  state        VARCHAR(16)  NOT NULL,
  priority     INTEGER      NOT NULL,
  attempts     INTEGER      NOT NULL,
  max_attempts INTEGER      NOT NULL,
  created_ms   BIGINT       NOT NULL,
  due_ms       BIGINT,
  started_ms   BIGINT,
  finished_ms  BIGINT       NOT NULL,
  archived_ms  BIGINT       NOT NULL,
  last_error   TEXT,
  result       BYTEA,
  payload      BYTEA,
  PRIMARY KEY (namespace, queue, id)
);

-- Retention deletes the oldest rows in small batches by this index.
CREATE INDEX lineup_archive_finished ON lineup_archive (finished_ms);

-- Listing a namespace newest first, with a cursor of (finished_ms, queue, id).
CREATE INDEX lineup_archive_listing ON lineup_archive (namespace, finished_ms, queue, id);
