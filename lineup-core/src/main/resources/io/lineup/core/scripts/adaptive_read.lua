-- adaptive_read: a queue's adaptive concurrency limit as it stands (lib/adaptive.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta
-- ARGV[1]      now in ms ('' = Redis server time)
-- Returns      { now_ms, min, max, target_ms, window_ms, decrease, hold_cap_ms, limit,
--              hold_until_ms, reason, moved_at_ms }, or an empty table when the queue has no
--              adaptive limit; now_ms: the script's clock (epoch ms); hold_until_ms, moved_at_ms:
--              epoch ms, 0 = none; decrease: the factor as text
--#include lib/clock.lua
--#include lib/adaptive.lua

local now = clock_now(ARGV[1])
local a = adaptive_load()
if not a then
  return {}
end
return {now, a.min, a.max, a.target_ms, a.window_ms, tostring(a.decrease), a.hold_cap_ms, a.limit,
  a.hold_until or 0, a.reason, a.moved_at or 0}
