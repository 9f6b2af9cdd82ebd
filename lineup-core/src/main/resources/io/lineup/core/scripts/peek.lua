-- peek: the next jobs of the ready line, in lease order, without leasing them.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready
-- ARGV[1]      offset into the line (0 = next)
-- ARGV[2]      count
-- Returns      { job... }: one table per job, next first
--   job = { id, payload, priority, attempts, created_ms }
--#include lib/keys.lua
--#include lib/job.lua

local ids = redis.call('ZRANGE', K_READY, tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1)
local out = {}
for _, id in ipairs(ids) do
  local job = job_load(id)
  if job then
    out[#out + 1] = {id, job[F_PAYLOAD], job[F_PRIORITY], job[F_ATTEMPTS], job[F_CREATED]}
  end
end
return out
