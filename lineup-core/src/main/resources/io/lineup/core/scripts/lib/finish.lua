-- A job that leaves the line for good (done, cancelled, expired) keeps its record for the
-- queue's retention window (and at most retention_max records), then the record goes.
--#include lib/keys.lua
--#include lib/job.lua
--#include lib/archive.lua
local FINISHED_TRIM_STEP = 8
local FINISHED_TRIM_MAX = 1000 -- per script call, within what one unpack may pass

-- Trimming a few of the oldest on every finish bounds memory without waiting for a sweep:
-- up to FINISHED_TRIM_STEP records for each of the n jobs this call finished.
local function finished_trim(s, n)
  local over = redis.call('ZCARD', K_FINISHED) - s.retention_max
  if over > 0 then
    local last = math.min(over, FINISHED_TRIM_STEP * n, FINISHED_TRIM_MAX) - 1
    local oldest = redis.call('ZRANGE', K_FINISHED, 0, last)
    records_delete(oldest)
    -- The same members, by rank: no member to look up, none passed back to Redis.
    redis.call('ZREMRANGEBYRANK', K_FINISHED, 0, last)
  end
end

-- Whether the queue keeps finished records at all; without retention they are deleted at once.
local function retention_on(s)
  return s.retention_ms > 0 and s.retention_max > 0
end

-- Turns a job into the record kept after it finished in this state (only a done job keeps its
-- payload).
-- How earlier leases ended no longer matters once the job finished (a settle then learns that it
-- finished), so those fields are dropped to keep the record small.
local function finished_record(job, state, now)
  job[F_STATE] = state
  job[F_FINISHED] = now
  job[F_ENDED] = 0
  job[F_PREV_TOKEN] = 0
  job[F_PREV_ENDED] = 0
  if state ~= ST_DONE then
    job[F_PAYLOAD] = ''
  end
end

local function finish(id, job, state, now, s)
  outbox_add(id, job, state, now, s, nil, nil)
  outbox_flush(s)
  if present(job[F_EXPIRES]) then
    redis.call('ZREM', K_TTL, id)
  end
  if not retention_on(s) then
    record_delete(id)
    return
  end
  finished_record(job, state, now)
  job_store(id, job)
  redis.call('ZADD', K_FINISHED, now, id)
  finished_trim(s, 1)
end
