-- adaptive_report: one ended request's signal to the queue's adaptive concurrency limit, which
-- every instance shares (lib/adaptive.lua; docs/adaptive.md). AIMD on a measurement window whose id
-- is floor(now / window_ms):
--   * a 429 or 503 decreases the limit at once (limit x decrease, at least 1 less, not below min),
--     at most once per window, so instances that see the same overload decrease it once; with a
--     Retry-After it also holds the line (no lease) until then, at most hold_cap_ms;
--   * any other answer adds its latency to the window. The first report of a later window closes
--     the window before it: a mean latency above target_ms decreases the limit (unless a 429 or 503
--     did in that window already); one at or below it increases the limit by 1, up to max, when the
--     window used at least half the limit (the most requests in flight its reports saw), so an
--     endpoint used lightly does not drift to max. A decrease at a close counts as the new
--     window's, so the limit decreases at most once a window whatever the signal.
-- A limit that rose wakes the queue's consumers, which a full limit left waiting.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: leased, meta, wake
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      latency: the request's time until its answer, ms; -1 = none measured (not sent)
-- ARGV[3]      status: the HTTP status answered; 0 = none (a timeout, a connection error)
-- ARGV[4]      retry_after: the answer's Retry-After in ms; -1 = none
-- Returns      { move, limit, reason }
--              move: 1 increased, -1 decreased, 0 not moved, 2 held (a Retry-After, not moved),
--              -2 the queue has no adaptive limit (limit 0, reason '')
--              limit: the limit in force after the report; reason: the limit's last reason
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/line.lua
--#include lib/adaptive.lua

local now = clock_now(ARGV[1])
local latency = tonumber(ARGV[2])
local status = tonumber(ARGV[3])
local retry_after = tonumber(ARGV[4])
local a = adaptive_load()
if not a then
  return {-2, 0, ''}
end
local limit = a.limit or a.min
local window = math.floor(now / a.window_ms)
local w = a.w or window
local n, sum, peak, down = a.w_n or 0, a.w_sum or 0, a.w_peak or 0, a.w_down or 0
local move, reason = 0, nil

local function decreased()
  return math.max(a.min, math.min(limit - 1, math.floor(limit * a.decrease)))
end

-- Closes the measured window when this report is in a later one (a clock set back stays in it).
if window > w then
  local down_next = 0
  if down == 0 and n > 0 then
    local mean = math.floor(sum / n + 0.5)
    if mean > a.target_ms then
      local lower = decreased()
      if lower < limit then
        limit, move = lower, -1
        reason = 'decrease: latency ' .. mean .. 'ms>' .. a.target_ms .. 'ms'
      end
      down_next = 1
    elseif peak * 2 >= limit and limit < a.max then
      limit, move = limit + 1, 1
      reason = 'increase: latency ' .. mean .. 'ms<=' .. a.target_ms .. 'ms'
    end
  end
  w, n, sum, peak, down = window, 0, 0, 0, down_next
end

local hold_until = a.hold_until or 0
if status == 429 or status == 503 then
  if down == 0 then
    local lower = decreased()
    if lower < limit then
      limit, move = lower, -1
      reason = 'decrease: ' .. status
    end
    down = 1
  end
  if retry_after > 0 then
    local until_ms = now + math.min(retry_after, a.hold_cap_ms)
    if until_ms > hold_until then
      hold_until = until_ms
      local held = 'hold: retry-after ' .. (until_ms - now) .. 'ms'
      if move == -1 then
        reason = reason .. ', ' .. held
      else
        reason, move = held, 2
      end
    end
  end
elseif latency >= 0 then
  n, sum = n + 1, sum + latency
  peak = math.max(peak, redis.call('ZCARD', K_LEASED))
end

redis.call('HSET', K_META, 'adaptive_w', w, 'adaptive_w_n', n, 'adaptive_w_sum', sum, 'adaptive_w_peak', peak,
  'adaptive_w_down', down)
if reason then
  redis.call('HSET', K_META, 'adaptive_limit', limit, 'adaptive_reason', reason, 'adaptive_moved_at',
    int_text(now), 'adaptive_hold_until', int_text(hold_until))
end
if move == 1 then
  wake()
end
return {move, limit, reason or a.reason}
