-- The archive outbox (docs/archive.md). While the queue's meta field archive_max is above 0 (the
-- server's archiver sets it; 0 or absent = off, and then this costs one comparison), every job
-- that ends (done, dead, cancelled, expired) adds one entry to the queue's outbox stream, in the
-- same script call that ends it, so no end is archived twice or missed by a crash in between.
-- The outbox holds at most archive_max entries: when it is full the entry is not added and
-- meta's n_archive_dropped counts it; the job itself ends as always.
--#include lib/keys.lua
--#include lib/job.lua
local OUTBOX_STATES = {[ST_DONE] = 'DONE', [ST_DEAD] = 'DEAD', [ST_CANCELLED] = 'CANCELLED', [ST_EXPIRED] = 'EXPIRED'}
local outbox_room = nil -- entries the outbox still takes in this call, read at the first end

-- result: the ack's result (bytes), or nil for the record's. The numbers go as one text field
-- (priority, attempts, max attempts, created, due, started, finished; ms, 0 = none) and empty texts
-- are left out: every field and every number argument costs Redis time on the ack path.
local function outbox_add(id, job, state, now, s, result)
  if s.archive_max <= 0 then
    return
  end
  if not outbox_room then
    outbox_room = s.archive_max - redis.call('XLEN', K_OUTBOX)
  end
  if outbox_room <= 0 then
    redis.call('HINCRBY', K_META, 'n_archive_dropped', 1)
    return
  end
  outbox_room = outbox_room - 1
  local max = job[F_MAX_ATTEMPTS]
  if not present(max) then
    max = s.max_attempts
  end
  local fields = {'id', id, 'st', OUTBOX_STATES[state], 'n', string.format('%d,%d,%d,%d,%d,%d,%d',
    job[F_PRIORITY], job[F_ATTEMPTS], max, job[F_CREATED], job[F_DUE], job[F_STARTED], now)}
  if present(job[F_ERROR]) then
    fields[#fields + 1] = 'err'
    fields[#fields + 1] = job[F_ERROR]
  end
  result = result or job[F_RESULT]
  if present(result) then
    fields[#fields + 1] = 'res'
    fields[#fields + 1] = result
  end
  if (state == ST_DONE or state == ST_DEAD) and present(job[F_PAYLOAD]) then
    fields[#fields + 1] = 'pay'
    fields[#fields + 1] = job[F_PAYLOAD]
  end
  redis.call('XADD', K_OUTBOX, '*', unpack(fields))
end
