-- configure: changes queue settings at run time (lib/settings.lua names them); resuming a paused
-- queue or raising a limit wakes waiting consumers. A key_concurrency above 0 starts a fair queue's
-- count of each key's leased jobs (lib/fair.lua, fair_counting_start).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta, wake
-- ARGV         name, value pairs; an empty value restores the default
-- Returns      { ok }: always 1
--#include lib/keys.lua
--#include lib/line.lua
--#include lib/fair.lua

for i = 1, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', K_META, ARGV[i])
  else
    redis.call('HSET', K_META, ARGV[i], ARGV[i + 1])
    if ARGV[i] == 'key_concurrency' and tonumber(ARGV[i + 1]) > 0 then
      -- A fair queue's key limit needs each key's leased jobs counted (lib/fair.lua).
      fair_counting_start()
    end
  end
end
wake()
return {1}
