-- The archive outbox (docs/archive.md). While the queue's meta field archive_max is above 0 (the
-- server's archiver sets it; 0 or absent = off, and then this costs one comparison), every job
-- that ends (done, dead, cancelled, expired) goes into the queue's outbox stream, in the same
-- script call that ends it, so no end is archived twice or missed by a crash in between.
--
-- The jobs that end in one call go into one stream entry (outbox_add gathers them, outbox_flush
-- writes the entry): an XADD per job cost the ack path more than the ack itself. An entry has the
-- fields
--   n  the number of jobs in it
--   m  the queue's max_attempts, for the jobs that named none
--   j  one msgpack array of, per job, the values: id, state (ST_*), attempts, started (ms, 0 =
--      never), finished (ms), last error ('' = none), result ('' = none), body
-- where body is a whole stored record (lib/job.lua) that the archiver reads the payload, creation,
-- priority, max attempts and due time from. An ack passes the record's stored body as it is, so
-- it unpacks neither the payload nor the other body fields; a cancelled or expired job's body is
-- packed without its payload, which the archive does not keep.
--
-- The outbox holds at most archive_max jobs, counted in meta's outbox_jobs (what the archiver
-- acknowledges is taken off, outbox_ack.lua): a job that finds it full is not added and meta's
-- n_archive_dropped counts it; the job itself ends as always.
--#include lib/keys.lua
--#include lib/job.lua
local outbox_used = nil    -- jobs in the outbox with those of this call, read at the first end
local outbox_values = {}   -- the values of the jobs not yet written, OUTBOX_VALUES per job
local OUTBOX_VALUES = 8
local outbox_dropped = 0   -- jobs of this call not added, not yet counted

-- Adds a job that ended in `state` to the call's pending entry, given its values: attempts,
-- started (ms, 0 = never), now (ms), err (the last error, 0 or '' = none), result (bytes, '' =
-- none) and body (a whole stored record, lib/job.lua). Used by outbox_add, and by an ack that
-- read these values without a job's table (lib/ack.lua).
local function outbox_add_values(id, state, attempts, started, now, err, result, body, s)
  if not outbox_used then
    outbox_used = tonumber(redis.call('HGET', K_META, 'outbox_jobs')) or 0
    if outbox_used >= s.archive_max and redis.call('XLEN', K_OUTBOX) == 0 then
      -- The count outlived its stream (deleted or trimmed by hand): start again from empty.
      redis.call('HDEL', K_META, 'outbox_jobs')
      outbox_used = 0
    end
  end
  if outbox_used >= s.archive_max then
    outbox_dropped = outbox_dropped + 1
    return
  end
  outbox_used = outbox_used + 1
  -- Gathered as values and packed once for the call: a pack per job made a string per job.
  local v = outbox_values
  local k = #v
  v[k + 1], v[k + 2], v[k + 3], v[k + 4] = id, state, attempts, started
  v[k + 5], v[k + 6], v[k + 7], v[k + 8] = now, err, result, body
end

-- Adds a job that ended in this state to the call's pending entry. body: its stored body (as
-- job_decode_head returned it), or nil to pack the job's fields. result: the ack's result
-- (bytes), or nil for the record's.
local function outbox_add(id, job, state, now, s, result, body)
  if s.archive_max <= 0 then
    return
  end
  if not body then
    if state == ST_DONE or state == ST_DEAD then
      body = job_pack(job)
    else
      local payload = job[F_PAYLOAD]
      job[F_PAYLOAD] = ''
      body = job_pack(job)
      job[F_PAYLOAD] = payload
    end
  end
  outbox_add_values(id, state, job[F_ATTEMPTS], job[F_STARTED], now, job[F_ERROR], result or job[F_RESULT], body, s)
end

-- Writes the jobs outbox_add gathered as one entry, and counts them and the dropped ones in meta.
local function outbox_flush(s)
  local values = #outbox_values
  if values > 0 then
    -- The table packed whole: its values go into one buffer. Given as arguments (earlier versions,
    -- whose entries the archiver still reads), each became a Lua string first, the body hashed anew.
    local packed = mp_pack(outbox_values)
    local n = values / OUTBOX_VALUES
    redis.call('XADD', K_OUTBOX, '*', 'n', n, 'm', s.max_attempts, 'j', packed)
    redis.call('HINCRBY', K_META, 'outbox_jobs', n)
    outbox_values = {}
  end
  if outbox_dropped > 0 then
    redis.call('HINCRBY', K_META, 'n_archive_dropped', outbox_dropped)
    outbox_dropped = 0
  end
end
