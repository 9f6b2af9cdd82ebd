-- fair_top: the keys of a fair queue with the most jobs waiting or leased (lib/fair.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta
--              and of its fairness keys (lib/fair.lua): the waiting and leased counts
-- ARGV[1]      by: 'waiting' or 'leased'
-- ARGV[2]      limit: most keys returned
-- Returns      { keys_waiting, keys_leased, entry... }: how many keys have jobs waiting and
--              leased, then up to `limit` keys, most jobs first, each:
--   entry = { key, count }
--#include lib/fair.lua

local out = {redis.call('ZCARD', fair_key_name('waiting')), redis.call('ZCARD', fair_key_name('leased'))}
local got
if ARGV[1] == 'leased' then
  got = redis.call('ZRANGE', fair_key_name('leased'), '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, tonumber(ARGV[2]),
    'WITHSCORES')
else
  got = redis.call('ZRANGE', fair_key_name('waiting'), '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, tonumber(ARGV[2]),
    'WITHSCORES')
end
for j = 1, #got, 2 do
  out[#out + 1] = got[j]
  out[#out + 1] = tonumber(got[j + 1])
end
return out
