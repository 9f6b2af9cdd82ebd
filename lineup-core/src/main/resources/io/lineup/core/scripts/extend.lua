-- extend: a heartbeat; moves the lease deadline of a leased job to now + time-to-run.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, meta
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      lease token
-- ARGV[4]      new time-to-run from now (ms, 0 = the job's time-to-run)
-- Returns      { code, lease_deadline_ms }
--              code: codes.lua; lease_deadline_ms: the new deadline (epoch ms, 0 unless code is 1)
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua

local now = clock_now(ARGV[1])
local id, token = ARGV[2], ARGV[3]
local job, code = job_held(id, token)
if not job then
  return {code, 0}
end
local ttr = tonumber(ARGV[4])
if ttr <= 0 then
  ttr = job[F_TTR]
  if not present(ttr) then
    ttr = settings_load().ttr_ms
  end
end
redis.call('ZADD', K_LEASED, 'XX', now + ttr, id)
return {C_OK, now + ttr}
