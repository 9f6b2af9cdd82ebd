-- The ready line: one sorted set whose score is (priority, arrival), so ZRANK is the exact position.
-- Score = (PRIORITY_MAX - priority) * ARRIVAL_SPAN + seq: higher priority first, FIFO within one.
-- Both terms stay below 2^53, so the double score is exact.
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
local PRIORITY_MAX = 255
local ARRIVAL_SPAN = 17592186044416 -- 2^44 arrivals per queue

-- Reserves n arrival numbers at once; returns the first. Unused ones are simply skipped.
local function arrivals_reserve(n)
  local last = redis.call('HINCRBY', K_META, 'seq', n)
  if last >= ARRIVAL_SPAN then
    error({err = 'LINEUP arrival sequence of this queue is exhausted'})
  end
  return last - n + 1
end

-- A job's score in the line as text (lib/clock.lua): its priority first, then its arrival.
local function line_score(priority, seq)
  return int_text((PRIORITY_MAX - priority) * ARRIVAL_SPAN + seq)
end

-- The arrival number a generated id writes in base 62 after its '~' (publish.lua): digits 0-9,
-- then A-Z, then a-z.
local function arrival_of(id)
  local n = 0
  for i = 2, #id do
    local b = str_byte(id, i)
    if b <= 57 then
      b = b - 48
    elseif b <= 90 then
      b = b - 55
    else
      b = b - 61
    end
    n = n * 62 + b
  end
  return n
end

-- Whether a job's line score is the one publish gave it, which its id and priority say
-- (line_score(priority, arrival_of(id))): a job with a generated id ('~') whose record is whole
-- and holds no due time and no expiry, at most 7 values (first, its msgpack fixarray header, 0x92
-- to 0x97). Only publish puts such a record in the line, and with that score: a delayed job has a
-- due time, and a job retried, respawned or released has a record of more values. A lease leaves
-- the score of such a job out of the leased record (lease.lua), since asking Redis for it
-- (ZPOPMIN's scores, formatted as text) cost a twelfth of the lease and ack; a release derives it.
local function line_derivable(id, first)
  -- generated(id) written out: the lease asks this of every job, and the call cost 1.2 % of a
  -- consumed job's instructions (drain-instructions: 64,830 against 64,056 Ir).
  return first >= 0x92 and first <= 0x97 and str_byte(id, 1) == 126
end

-- The same rule for a job decoded from a leased record that holds no score: the score publish gave
-- it when the job was one line_derivable names (generated id, no due time, no expiry), else nil (a
-- record of an earlier build without a score; its job goes to the back of the line).
local function line_derived(id, job)
  if generated(id) and not present(job[F_DUE]) and not present(job[F_EXPIRES]) then
    return line_score(job[F_PRIORITY], arrival_of(id))
  end
  return nil
end

local function line_add(id, priority)
  redis.call('ZADD', K_READY, line_score(priority, arrivals_reserve(1)), id)
end

-- One wake-up token is enough: a consumer that takes jobs and leaves some behind passes it on.
local function wake()
  if redis.call('LLEN', K_WAKE) == 0 then
    redis.call('RPUSH', K_WAKE, '1')
  end
end

-- A delayed job that became the earliest changes how long consumers should wait.
local function delay_add(id, due)
  redis.call('ZADD', K_DELAYED, due, id)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0)
  if first[1] == id then
    wake()
  end
end

-- Moves due delayed jobs to the line; returns how many moved. Their records are read with one
-- HMGET per records hash and they join the line with one ZADD, instead of an HGET and a ZADD per
-- job: when many jobs fall due at once, each redis.call saved is about a microsecond of the call.
local function promote_due(now, limit)
  local due = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, limit)
  if #due == 0 then
    return 0
  end
  local seq = arrivals_reserve(#due)
  -- Due jobs are about to be leased, so their hashes become hash tables now (records_get).
  local raws = records_get(due, true)
  local scores = {}         -- ZADD score/member pairs for the line
  for i, id in ipairs(due) do
    if raws[i] then
      local job = job_decode(raws[i])
      scores[#scores + 1] = line_score(job[F_PRIORITY], seq + i - 1)
      scores[#scores + 1] = id
      note('ready', id)
    end
  end
  if #scores > 0 then
    redis.call('ZADD', K_READY, unpack(scores))
  end
  redis.call('ZREM', K_DELAYED, unpack(due))
  wake()
  return #due
end

-- Milliseconds until the earliest delayed job is due, or -1 when none is delayed.
local function next_due_in(now)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
  if #first == 0 then
    return -1
  end
  local wait = tonumber(first[2]) - now
  if wait < 0 then
    return 0
  end
  return wait
end
