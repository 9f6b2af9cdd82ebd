-- dead_list: a page of the dead letters, oldest death first.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, dead
-- ARGV[1]      offset
-- ARGV[2]      count
-- Returns      { total, job... }: how many dead letters there are, then one table per job
--   job = { id, payload, priority, attempts, error, died_ms }
--              error: the last error text; died_ms: when it died (epoch ms)
--#include lib/keys.lua
--#include lib/job.lua

local ids = redis.call('ZRANGE', K_DEAD, tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1, 'WITHSCORES')
local out = {redis.call('ZCARD', K_DEAD)}
for i = 1, #ids, 2 do
  local job = job_load(ids[i])
  if job then
    local err = job[F_ERROR]
    if not present(err) then
      err = ''
    end
    out[#out + 1] = {ids[i], job[F_PAYLOAD], job[F_PRIORITY], job[F_ATTEMPTS], err, tonumber(ids[i + 1])}
  end
end
return out
