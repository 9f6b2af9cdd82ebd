-- adaptive_configure: turns a queue's adaptive concurrency limit on with these bounds and settings,
-- changes them, or turns it off (lib/adaptive.lua names the fields). A limit already in force is
-- kept, moved into the new bounds when outside them; a new one starts at `initial`. Turning it off
-- deletes its settings and state, so the queue's own concurrency applies again. Wakes the queue's
-- consumers, whose limit may have risen.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta, wake
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      min: the lowest limit, requests in flight ('' = turn the adaptive limit off; then
--              no more ARGV)
-- ARGV[3]      max: the highest limit, requests in flight
-- ARGV[4]      initial: the limit a new adaptive limit starts at, requests in flight
-- ARGV[5]      target_ms: the window latency above which the limit decreases, ms
-- ARGV[6]      window_ms: the measurement window, ms
-- ARGV[7]      decrease: the factor of a decrease (0.5 to 0.95)
-- ARGV[8]      hold_cap_ms: the longest Retry-After hold, ms
-- Returns      { limit }: the limit in force now; 0 when turned off
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/line.lua
--#include lib/adaptive.lua

local now = clock_now(ARGV[1])
if ARGV[2] == '' then
  redis.call('HDEL', K_META, unpack(adaptive_fields()))
  wake()
  return {0}
end
local min, max, initial = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local a = adaptive_load()
local limit = a and a.limit
local reason
if not limit then
  limit = math.max(min, math.min(max, initial))
  reason = 'start: ' .. limit
elseif limit > max then
  limit = max
  reason = 'bounds: max ' .. max
elseif limit < min then
  limit = min
  reason = 'bounds: min ' .. min
end
redis.call('HSET', K_META, 'adaptive_min', min, 'adaptive_max', max, 'adaptive_target_ms', ARGV[5],
  'adaptive_window_ms', ARGV[6], 'adaptive_decrease', ARGV[7], 'adaptive_hold_cap_ms', ARGV[8],
  'adaptive_limit', limit)
if reason then
  redis.call('HSET', K_META, 'adaptive_reason', reason, 'adaptive_moved_at', int_text(now))
end
wake()
return {limit}
