-- respawn: puts dead jobs back at the end of the ready line with their attempts reset.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, dead, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      fresh TTL (ms from now, 0 = none)
-- ARGV[3]      mode: 'ids' (the ids follow in ARGV[4..]) or 'oldest' (ARGV[4] = how many, oldest first)
-- Returns      { done, left }: jobs respawned, dead letters left
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/respawn.lua

local now = clock_now(ARGV[1])
local ttl = tonumber(ARGV[2])
local ids
if ARGV[3] == 'ids' then
  ids = {}
  for i = 4, #ARGV do
    ids[#ids + 1] = ARGV[i]
  end
else
  ids = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[4]) - 1)
end
local n = 0
for _, id in ipairs(ids) do
  local job = job_load(id)
  if job and respawn_one(id, job, now, ttl) then
    n = n + 1
  end
end
if n > 0 then
  wake()
end
events_flush(now)
return {n, redis.call('ZCARD', K_DEAD)}
