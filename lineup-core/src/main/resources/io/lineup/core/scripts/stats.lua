-- stats: counts per state, settings and counters of one queue, and the completions per second its
-- service rate and ETA are computed from (by the engine, EtaEstimator.java).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: ready, delayed, leased, finished, dead, meta, rate
-- ARGV[1]      now in ms ('' = Redis server time)
-- Returns      { ready, delayed, leased, finished, dead, now_ms, settings, done_per_s, rate_window }
--              now_ms: the script's clock (epoch ms); settings: the settings and counters (n_*)
--              as a flat name/value list; done_per_s: completions per second (lib/service.lua),
--              oldest first, the last for the current second; rate_window: the rate limit's
--              window, a table of leases in the last second, ms since the oldest and since the
--              newest of them (lib/service.lua)
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/settings.lua
--#include lib/service.lua

local now = clock_now(ARGV[1])
local s = settings_load()
local flat = {}
for _, name in ipairs(SETTING_NAMES) do
  flat[#flat + 1] = name
  flat[#flat + 1] = tostring(s[name])
end
local meta = redis.call('HGETALL', K_META)
for i = 1, #meta, 2 do
  if string.sub(meta[i], 1, 2) == 'n_' then
    flat[#flat + 1] = meta[i]
    flat[#flat + 1] = meta[i + 1]
  end
end
return {redis.call('ZCARD', K_READY), redis.call('ZCARD', K_DELAYED), redis.call('ZCARD', K_LEASED),
  redis.call('ZCARD', K_FINISHED), redis.call('ZCARD', K_DEAD), now, flat, service_counts(now),
  service_rate_window(now, s.rate)}
