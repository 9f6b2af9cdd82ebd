-- A lease that failed (nack) or ran out: back to the line, or to dead letters when the job is out
-- of attempts. A nacked job waits its backoff and joins the back of its priority's line; a job
-- whose lease ran out goes back at once to the place it was leased from (its priority and original
-- arrival), since it did not fail: its consumer went away. rand (0..1) comes from the caller,
-- because Redis seeds Lua's random generator the same way on every call.
--#include lib/keys.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/archive.lua
--#include lib/fair.lua
local function backoff_delay(s, attempts, rand)
  local delay = s.backoff_ms
  if s.backoff == 'exponential' then
    delay = delay * 2 ^ (attempts - 1)
  end
  if delay > s.backoff_max_ms then
    delay = s.backoff_max_ms
  end
  return math.floor(delay * (1 - s.backoff_jitter * rand))
end

-- ended: END_NACKED or END_EXPIRED (lib/job.lua), how the lease ended. delay: ms, -1 = the
-- queue's backoff; not used for END_EXPIRED, which goes back to its place at once.
local function retry_or_bury(id, job, now, s, err, delay, rand, ended)
  redis.call('ZREM', K_LEASED, id)
  local fair_key, fair_tag = false, nil
  if s.fair == 1 then
    fair_key, fair_tag = fair_entry_of(id)
  end
  -- The score the job was leased from (lib/line.lua, line_leased).
  local line = nil
  if ended == END_EXPIRED then
    delay = 0
    line = line_leased(id, job, fair_tag)
  end
  job[F_ERROR] = err
  job[F_ENDED] = ended
  job[F_LINE] = 0
  local max = job[F_MAX_ATTEMPTS]
  if not present(max) then
    max = s.max_attempts
  end
  if job[F_ATTEMPTS] >= max then
    job[F_STATE] = ST_DEAD
    job[F_FINISHED] = now
    -- A dead letter stays until respawned or purged; its TTL no longer applies.
    if present(job[F_EXPIRES]) then
      redis.call('ZREM', K_TTL, id)
      job[F_EXPIRES] = 0
    end
    job_store(id, job)
    if fair_key then
      fair_unleased(fair_key, nil)
    end
    redis.call('ZADD', K_DEAD, now, id)
    outbox_add(id, job, ST_DEAD, now, s, nil, nil)
    outbox_flush(s)
    note('dead', id)
    return ST_DEAD, now
  end
  if delay < 0 then
    delay = backoff_delay(s, job[F_ATTEMPTS], rand)
  end
  job[F_STATE] = ST_WAITING
  job[F_DUE] = now + delay
  job_store(id, job)
  if fair_key then
    fair_unleased(fair_key, 'waiting')
  end
  if line and fair_key then
    fair_line_add(id, fair_key, job[F_PRIORITY], line)
    wake()
  elseif line then
    redis.call('ZADD', K_READY, line, id)
    wake()
  elseif delay == 0 then
    line_add(id, job[F_PRIORITY])
    wake()
  else
    delay_add(id, now + delay)
  end
  note('retried', id)
  return ST_WAITING, now + delay
end

-- Leases whose time-to-run passed without ack or extend; bounded per call.
local function reclaim_expired(now, s, limit, rand)
  local expired = redis.call('ZRANGEBYSCORE', K_LEASED, '-inf', '(' .. now, 'LIMIT', 0, limit)
  for _, id in ipairs(expired) do
    local job = job_load(id)
    if job then
      retry_or_bury(id, job, now, s, 'lease expired: no ack or extend within the time-to-run', -1, rand, END_EXPIRED)
    else
      redis.call('ZREM', K_LEASED, id)
    end
  end
  return #expired
end
