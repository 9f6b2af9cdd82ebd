-- adaptive_report: one ended request's signal to the queue's adaptive concurrency limit, which
-- every instance shares (lib/adaptive.lua; docs/adaptive.md). A gradient step on a measurement
-- window whose id is floor(now / window_ms):
--   * a 429 or 503 decreases the limit at once (limit x decrease, at least 1 less, not below min),
--     at most once per window, so instances that see the same overload decrease it once; with a
--     Retry-After it also holds the line (no lease) until then, at most hold_cap_ms;
--   * any other answer adds its latency to the window. The first report of a later window closes
--     the window before it, with ratio = target_ms / its mean latency:
--       - mean above target_ms: the limit becomes limit x max(decrease, ratio), at least 1 less,
--         not below min (unless a 429 or 503 decreased it in that window already): near the
--         target a small cut, far above it at most the factor of a decrease;
--       - mean at or below it: the limit becomes the larger of limit + 1 and
--         peak x min(ratio^3, 2) (peak: the most requests in flight the window's reports saw), up
--         to max, when the window used at least half the limit. A quarter of headroom or more
--         doubles what was used; near the target the step shrinks (10 % of headroom: x 1.33,
--         3 %: x 1.09), so the limit creeps to the level where the latency meets the target
--         instead of jumping past it. Scaling the peak, not the limit, climbs fast where the
--         window used the limit, and not at all where it used little of it, so an endpoint used
--         lightly does not drift to max.
--     A decrease at a close counts as the new window's, so the limit decreases at most once a
--     window whatever the signal. A window under 1 s is judged only once it holds 5 answers;
--     until then its answers carry into the next window.
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
-- The largest step up of a window: doubling, as TCP's slow start, so an overshoot past the level
-- where the latency crosses the target is at most twice it.
local MAX_STEP_UP = 2
-- The power of the headroom (target / mean) that makes the step up: an endpoint's latency often
-- barely moves until it is near its capacity (100 ms idle, 125 ms full), so the headroom itself
-- (x 1.25) would climb slowly where there is room; its cube doubles there and still shrinks to
-- +1 as the mean nears the target.
local STEP_UP_POWER = 3
-- The fewest answers a window shorter than SHORT_WINDOW_MS (ms) is judged on; a longer window is
-- judged on any (it is chosen to hold a few answers, docs/adaptive.md).
local MIN_ANSWERS = 5
local SHORT_WINDOW_MS = 1000

local a = adaptive_load()
if not a then
  return {-2, 0, ''}
end
local limit = a.limit or a.min
local window = math.floor(now / a.window_ms)
local w = a.w or window
local n, sum, peak, down = a.w_n or 0, a.w_sum or 0, a.w_peak or 0, a.w_down or 0
local move, reason = 0, nil

-- The limit times factor (below 1), at least 1 less, not below min.
local function decreased(factor)
  return math.max(a.min, math.min(limit - 1, math.floor(limit * factor)))
end

-- The limit scaled to the window's headroom: at most twice the window's peak, at least 1 more.
local function increased(ratio)
  local step = math.min(ratio ^ STEP_UP_POWER, MAX_STEP_UP)
  return math.min(a.max, math.max(limit + 1, math.floor(peak * step)))
end

-- A window shorter than SHORT_WINDOW_MS with fewer than MIN_ANSWERS answers (and no decrease) is not
-- judged yet: its sums carry into the next, so a few answers do not move the limit.
if window > w and down == 0 and n > 0 and n < MIN_ANSWERS and a.window_ms < SHORT_WINDOW_MS then
  w = window
end

-- Closes the measured window when this report is in a later one (a clock set back stays in it).
if window > w then
  local down_next = 0
  if down == 0 and n > 0 then
    local mean = math.floor(sum / n + 0.5)
    if mean > a.target_ms then
      local lower = decreased(math.max(a.decrease, a.target_ms / mean))
      if lower < limit then
        limit, move = lower, -1
        reason = 'decrease: latency ' .. mean .. 'ms>' .. a.target_ms .. 'ms'
      end
      down_next = 1
    elseif peak * 2 >= limit and limit < a.max then
      limit, move = increased(a.target_ms / math.max(mean, 1)), 1
      reason = 'increase: latency ' .. mean .. 'ms<=' .. a.target_ms .. 'ms'
    end
  end
  w, n, sum, peak, down = window, 0, 0, 0, down_next
end

local hold_until = a.hold_until or 0
if status == 429 or status == 503 then
  if down == 0 then
    local lower = decreased(a.decrease)
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
