-- rate_slot: a leased job takes its slot of the queue's rate at the moment its work starts (for a
-- dispatch task: the moment its request is sent), so that in any sliding period of rate_period_ms
-- at most rate_limit jobs start, however late after its lease a job starts and on whichever
-- instance. The lease put the job in the rate log (lease.lua: member id:attempt, scored by the
-- lease's time), which kept leases within the rate; this moves the job's entry to now when the
-- period ending now holds fewer than rate_limit other entries, else leaves it and answers how long
-- to wait before asking again. An entry the log already dropped (a start more than a period after
-- its lease) is taken again on the same terms. Every entry in the log is at or before now, and the
-- lease counts the moved entries too, so leases never run ahead of the starts.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta, rate
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      attempt: the lease's (the log's member is id:attempt)
-- Returns      { wait_ms, now_ms }
--              wait_ms: 0 = the slot is taken at now_ms (or the queue has no rate limit); else
--              the ms until the oldest other entry leaves the period, when the caller asks again
--              now_ms: the script's clock (epoch ms): when taken, the start as the log records it
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/settings.lua

local now = clock_now(ARGV[1])
local member = ARGV[2] .. ':' .. ARGV[3]
local s = settings_load()
if s.rate <= 0 then
  return {0, now}
end
local period = s.rate_period_ms
-- The same trim as the lease's: an entry a whole period old is out of every window ending now.
redis.call('ZREMRANGEBYSCORE', K_RATE, '-inf', now - period)
local others = redis.call('ZCARD', K_RATE)
local own = redis.call('ZSCORE', K_RATE, member)
if own then
  others = others - 1
end
if others >= s.rate then
  local first = redis.call('ZRANGE', K_RATE, 0, 1, 'WITHSCORES')
  local oldest = first[2]
  if first[1] == member then
    oldest = first[4]
  end
  return {math.max(1, tonumber(oldest) + period - now), now}
end
redis.call('ZADD', K_RATE, int_text(now), member)
return {0, now}
