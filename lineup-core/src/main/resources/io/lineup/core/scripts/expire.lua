-- expire: background step; jobs whose TTL passed before they finished leave every line.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, finished, dead, ttl, meta, events, outbox, wake
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      limit: most jobs expired per call
-- Returns      { handled }: how many jobs expired
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/expire.lua

local now = clock_now(ARGV[1])
local ids = redis.call('ZRANGEBYSCORE', K_TTL, '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local s = settings_load()
local n = 0
for _, id in ipairs(ids) do
  local job = job_load(id)
  redis.call('ZREM', K_TTL, id)
  if job and (job[F_STATE] == ST_WAITING or job[F_STATE] == ST_LEASED) then
    expire_one(id, job, now, s)
    n = n + 1
  end
end
events_flush(now)
return {n}
