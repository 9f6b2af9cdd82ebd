-- fair_key_read: one fairness key's settings and counts in a fair queue (lib/fair.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta
--              and of its fairness keys (lib/fair.lua): fair keys
-- ARGV[1]      the key
-- Returns      { own, effective, waiting, leased, parked }
--              own: the key's own settings {weight, concurrency, rate, rate period (ms), max waiting,
--              paused}, -1 where the queue's key_* setting applies; effective: the same six values
--              as they apply; waiting: jobs ready, delayed or parked; leased: jobs leased now;
--              parked: jobs of the paused key held out of the line
--#include lib/fair.lua

local key = ARGV[1]
local raw = redis.call('HGET', fair_key_name('keys'), key)
local own = {-1, -1, -1, -1, -1, 0}
if raw then
  local stored = cmsgpack.unpack(raw)
  for i = 1, 6 do
    own[i] = stored[i] or own[i]
  end
end
local ks = fair_settings(key)
local paused = 0
if ks.paused then
  paused = 1
end
return {own, {ks.weight, ks.concurrency, ks.rate, ks.period, ks.max_waiting, paused},
  fair_count_of('waiting', key),
  fair_leased_now(key), redis.call('ZCARD', fair_key_name('park:' .. key))}
