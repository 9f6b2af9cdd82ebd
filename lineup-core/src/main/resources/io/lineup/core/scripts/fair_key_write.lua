-- fair_key_write: sets one fairness key's own settings in a fair queue (lib/fair.lua); a key whose
-- settings are all the queue's and that is not paused keeps no entry. Pausing moves nothing at
-- once (a lease moves the key's jobs to its park as it meets them); resuming is fair_unpark's.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta, wake
--              and of its fairness keys (lib/fair.lua): fair key settings
-- ARGV[1]      the key (1 to 128 characters)
-- ARGV[2..6]   weight (1..100), concurrency, rate, rate period (ms), max waiting; -1 = the queue's
--              key_* setting (weight: 1)
-- ARGV[7]      paused: 1 or 0
-- Returns      { parked }: the key's jobs in its park, which fair_unpark moves back when resumed
--#include lib/fair.lua
--#include lib/line.lua

local key = ARGV[1]
local values = {}
local own = ARGV[7] == '1'
for i = 2, 6 do
  values[i - 1] = tonumber(ARGV[i])
  own = own or values[i - 1] >= 0
end
values[6] = tonumber(ARGV[7])
if values[2] > 0 then
  -- A key's concurrency limit needs each key's leased jobs counted.
  fair_counting_start()
end
if own then
  redis.call('HSET', fair_key_name('keys'), key, cmsgpack.pack(values))
else
  redis.call('HDEL', fair_key_name('keys'), key)
end
-- A raised limit may let passed-over jobs go.
wake()
return {redis.call('ZCARD', fair_key_name('park:' .. key))}
