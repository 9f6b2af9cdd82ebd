-- shorten: shortens the stay of a finished job's record (done, cancelled, expired) so that the
-- retention sweep drops it once grace has passed from now; a record due to go sooner keeps its
-- time, and a job that has not finished (no place in the finished set) is left alone.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: finished, meta
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      grace in ms (0 or more)
-- Returns      { code }
--              code: 1 the record now goes within the grace, -1 no finished record of this job
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/settings.lua

local now = clock_now(ARGV[1])
local id = ARGV[2]
local finished_at = redis.call('ZSCORE', K_FINISHED, id)
if not finished_at then
  return {C_NOT_FOUND}
end
-- The retention sweep drops a record whose score is at most now - retention_ms; a record scored
-- (now + grace - retention_ms) is therefore dropped by the first sweep once the grace has passed.
local due = now + tonumber(ARGV[3]) - settings_load().retention_ms
if due < tonumber(finished_at) then
  redis.call('ZADD', K_FINISHED, 'XX', int_text(due), id)
end
return {C_OK}
