-- stats: counts per state, measured service rate, settings and counters of one queue.
--
-- KEYS[1..11]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: ready, delayed, leased, finished, dead, meta
-- ARGV[1]      now in ms ('' = Redis server time)
-- Returns      { ready, delayed, leased, finished, dead, service_rate, now_ms, settings }
--              service_rate: jobs/s, as text; now_ms: the script's clock (epoch ms);
--              settings: the settings and counters (n_*) as a flat name/value list
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
  redis.call('ZCARD', K_FINISHED), redis.call('ZCARD', K_DEAD), string.format('%.6f', service_rate(now) * 1000),
  now, flat}
