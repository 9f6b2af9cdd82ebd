-- purge: deletes dead letters for good, oldest first, at most `limit` per call.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, dead, meta, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      limit
-- Returns      { done, left }: dead letters purged, dead letters left
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/fair.lua

local now = clock_now(ARGV[1])
local ids = redis.call('ZRANGE', K_DEAD, 0, tonumber(ARGV[2]) - 1)
if #ids > 0 then
  records_delete(ids)
  if fair_on() then
    fair_keys_forget(ids)
  end
  redis.call('ZREM', K_DEAD, unpack(ids))
  for _, id in ipairs(ids) do
    note('purged', id)
  end
end
events_flush(now)
return {#ids, redis.call('ZCARD', K_DEAD)}
