-- fair_top: the keys of a fair queue with the most jobs waiting or leased (lib/fair.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta
--              and of its fairness keys (lib/fair.lua): the waiting and leased counts
-- ARGV[1]      by: 'waiting' or 'leased'
-- ARGV[2]      limit: most keys returned
-- Returns      { keys_waiting, keys_leased, entry... }: how many keys have jobs waiting and
--              leased, then up to `limit` keys, most jobs first, each:
--   entry = { key, count }
--#include lib/fair.lua

local limit = tonumber(ARGV[2])
local out
local got
if fair_defaults().counting then
  out = {redis.call('ZCARD', fair_key_name('waiting')), redis.call('ZCARD', fair_key_name('leased'))}
else
  -- Leased jobs are counted by key only once some key has a concurrency limit (lib/fair.lua).
  local counts = fair_leased_scan()
  local keys = {}
  for key in pairs(counts) do
    keys[#keys + 1] = key
  end
  out = {redis.call('ZCARD', fair_key_name('waiting')), #keys}
  if ARGV[1] == 'leased' then
    table.sort(keys, function(a, b)
      if counts[a] ~= counts[b] then
        return counts[a] > counts[b]
      end
      return a > b
    end)
    got = {}
    for i = 1, math.min(limit, #keys) do
      got[#got + 1] = keys[i]
      got[#got + 1] = counts[keys[i]]
    end
  end
end
if got then
  -- Counted above.
elseif ARGV[1] == 'leased' then
  got = redis.call('ZRANGE', fair_key_name('leased'), '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit, 'WITHSCORES')
else
  got = redis.call('ZRANGE', fair_key_name('waiting'), '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, limit, 'WITHSCORES')
end
for j = 1, #got, 2 do
  out[#out + 1] = got[j]
  out[#out + 1] = tonumber(got[j + 1])
end
return out
