-- configure: changes queue settings at run time (lib/settings.lua names them); resuming a paused
-- queue or raising a limit wakes waiting consumers.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta, wake
-- ARGV         name, value pairs; an empty value restores the default
-- Returns      { ok }: always 1
--#include lib/keys.lua
--#include lib/line.lua

for i = 1, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', K_META, ARGV[i])
  else
    redis.call('HSET', K_META, ARGV[i], ARGV[i + 1])
  end
end
wake()
return {1}
