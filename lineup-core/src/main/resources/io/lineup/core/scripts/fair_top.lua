-- fair_top: the keys of a fair queue with the most jobs waiting or leased (lib/fair.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta
--              and of its fairness keys (lib/fair.lua): the waiting and leased counts, and the
--              log of taken keys, which it folds into the waiting counts first (FAIR.fold)
-- ARGV[1]      by: 'waiting' or 'leased'
-- ARGV[2]      limit: most keys returned
-- Returns      { keys_waiting, keys_leased, entry... }: how many keys have jobs waiting and
--              leased, then up to `limit` keys, most jobs first, each (reads every key with
--              jobs: O(keys)):
--   entry = { key, count }
--#include lib/fair.lua

local limit = tonumber(ARGV[2])

-- The `limit` keys with most jobs of counts (key -> count), most first (ties by key, last first).
local function top(counts)
  local keys = {}
  for key in pairs(counts) do
    keys[#keys + 1] = key
  end
  table.sort(keys, function(a, b)
    if counts[a] ~= counts[b] then
      return counts[a] > counts[b]
    end
    return a > b
  end)
  local got = {}
  for i = 1, math.min(limit, #keys) do
    got[#got + 1] = keys[i]
    got[#got + 1] = counts[keys[i]]
  end
  return got, #keys
end

-- A count hash (lib/fair.lua) as a table key -> count. Reads every key with jobs: O(keys).
local function counts_of(which)
  local flat = redis.call('HGETALL', fair_key_name(which .. '_counts'))
  local counts = {}
  for j = 1, #flat, 2 do
    counts[flat[j]] = tonumber(flat[j + 1])
  end
  return counts
end

FAIR.fold()
local keys_waiting = redis.call('HLEN', fair_key_name('waiting_counts'))
local out, got
if ARGV[1] == 'leased' then
  -- Leased jobs are counted by key only once some key has a concurrency limit (lib/fair.lua);
  -- until then they are counted from the leased set.
  local counts = fair_defaults().counting and counts_of('leased') or fair_leased_scan()
  local keys_leased
  got, keys_leased = top(counts)
  out = {keys_waiting, keys_leased}
else
  got = top(counts_of('waiting'))
  local keys_leased
  if fair_defaults().counting then
    keys_leased = redis.call('HLEN', fair_key_name('leased_counts'))
  else
    keys_leased = 0
    for _ in pairs(fair_leased_scan()) do
      keys_leased = keys_leased + 1
    end
  end
  out = {keys_waiting, keys_leased}
end
for j = 1, #got do
  out[#out + 1] = got[j]
end
return out
