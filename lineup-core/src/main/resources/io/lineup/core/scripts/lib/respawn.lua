-- Respawning a dead job: back at the end of its priority's line with its attempts reset, shared by
-- respawn.lua (dead letters by id or oldest first) and jobs_act.lua (actions on listed jobs).
--#include lib/keys.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/fair.lua

-- Puts the dead job id (its record decoded in job) back in line, with a fresh TTL of ttl ms from
-- now (0 = none). Returns false, changing nothing, when the job is not in dead letters.
local function respawn_one(id, job, now, ttl)
  if job[F_STATE] ~= ST_DEAD or redis.call('ZREM', K_DEAD, id) ~= 1 then
    return false
  end
  job[F_STATE] = ST_WAITING
  job[F_ATTEMPTS] = 0
  job[F_DUE] = now
  job[F_FINISHED] = 0
  job[F_EXPIRES] = 0
  if ttl > 0 then
    job[F_EXPIRES] = now + ttl
    redis.call('ZADD', K_TTL, now + ttl, id)
  end
  job_store(id, job)
  if fair_on() then
    fair_moved(fair_key_of(id), nil, 'waiting')
  end
  line_add(id, job[F_PRIORITY])
  note('respawned', id)
  return true
end
