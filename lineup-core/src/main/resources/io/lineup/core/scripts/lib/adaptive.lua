-- An adaptive concurrency limit: its settings and state in the queue's meta hash, where every
-- instance reads and moves the same limit (docs/adaptive.md). The settings, written by
-- adaptive_configure.lua:
--   adaptive_min, adaptive_max   the limit's bounds, in requests in flight
--   adaptive_target_ms           the mean latency of a window above which the limit decreases (ms)
--   adaptive_window_ms           the measurement window (ms); a window's id is floor(now / it)
--   adaptive_decrease            the factor of a decrease (0.5 to 0.95)
--   adaptive_hold_cap_ms         the longest Retry-After hold (ms)
-- The state, moved by adaptive_report.lua:
--   adaptive_limit               the limit in force, read with the settings (lib/settings.lua)
--   adaptive_hold_until          no lease before it (epoch ms, lease.lua); 0 = no hold
--   adaptive_reason              why the limit last moved or held, e.g. 'decrease: 429'
--   adaptive_moved_at            when (epoch ms)
--   adaptive_w                   the id of the window being measured
--   adaptive_w_n, adaptive_w_sum its measured answers and the sum of their latencies (ms)
--   adaptive_w_peak              the most requests in flight its reports saw
--   adaptive_w_down              1 once the limit decreased in it (at most one decrease a window)
--#include lib/keys.lua
local ADAPTIVE_NAMES = {'min', 'max', 'target_ms', 'window_ms', 'decrease', 'hold_cap_ms', 'limit', 'hold_until',
  'reason', 'moved_at', 'w', 'w_n', 'w_sum', 'w_peak', 'w_down'}

-- The meta hash's field names of the above, in ADAPTIVE_NAMES's order.
local function adaptive_fields()
  local fields = {}
  for i, name in ipairs(ADAPTIVE_NAMES) do
    fields[i] = 'adaptive_' .. name
  end
  return fields
end

-- The fields above by their names without 'adaptive_' (numbers as numbers, the reason as text), or
-- nil when the queue has no adaptive limit.
local function adaptive_load()
  local values = redis.call('HMGET', K_META, unpack(adaptive_fields()))
  if not values[1] then
    return nil
  end
  local a = {}
  for i, name in ipairs(ADAPTIVE_NAMES) do
    if name == 'reason' then
      a[name] = values[i] or ''
    else
      a[name] = tonumber(values[i])
    end
  end
  return a
end
