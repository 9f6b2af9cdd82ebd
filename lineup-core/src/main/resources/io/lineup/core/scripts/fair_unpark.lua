-- fair_unpark: moves a resumed key's parked jobs back to the line, at most `limit` per call, each at
-- its key's next turn (lib/fair.lua): a key back from a pause is served as one that just arrived,
-- not ahead of everyone for the turns it missed. Does nothing while the key is paused.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, meta, wake
--              and of its fairness keys (lib/fair.lua): the key's park and tagger
-- ARGV[1]      the key
-- ARGV[2]      limit: most jobs moved
-- Returns      { moved, left }: jobs moved by this call, jobs still parked
--#include lib/keys.lua
--#include lib/fair.lua
--#include lib/line.lua
--#include lib/clock.lua
--#include lib/score.lua

local key = ARGV[1]
if fair_settings(key).paused then
  return {0, redis.call('ZCARD', fair_key_name('park:' .. key))}
end
local got = redis.call('ZRANGE', fair_key_name('park:' .. key), 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
local scores = {}
local ids = {}
local entries = {}  -- id/entry pairs: the jobs' tags (lib/fair.lua, fair_entry)
for j = 1, #got, 2 do
  -- The class from the parked score: the job's priority as it stood in line.
  local class = math.floor(tonumber(got[j + 1]) / ARRIVAL_SPAN)
  local score, tag = fair_score(key, PRIORITY_MAX - class)
  scores[#scores + 1] = int_text(score)
  scores[#scores + 1] = got[j]
  ids[#ids + 1] = got[j]
  if key ~= '' then
    entries[#entries + 1] = got[j]
    entries[#entries + 1] = fair_entry(key, int_text(tag))
  end
end
if #ids > 0 then
  redis.call('ZADD', K_READY, unpack(scores))
  if #entries > 0 then
    fair_keys_put(entries)
  end
  redis.call('ZREM', fair_key_name('park:' .. key), unpack(ids))
  fair_flush()
  wake()
end
return {#ids, redis.call('ZCARD', fair_key_name('park:' .. key))}
