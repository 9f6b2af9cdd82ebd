-- retention: background step; drops finished records (done, cancelled, expired) older than the
-- queue's retention window.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, finished, meta
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      limit: most records dropped per call
-- Returns      { handled }: how many records were dropped
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua

local now = clock_now(ARGV[1])
local s = settings_load()
local ids = redis.call('ZRANGEBYSCORE', K_FINISHED, '-inf', now - s.retention_ms, 'LIMIT', 0, tonumber(ARGV[2]))
if #ids > 0 then
  records_delete(ids)
  redis.call('ZREM', K_FINISHED, unpack(ids))
end
return {#ids}
