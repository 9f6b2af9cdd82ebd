-- cancel: removes a job from whatever line it stands in (waiting, leased or dead); a leased job's
-- ack then answers CANCELLED. The record becomes a tombstone kept for the retention window.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, finished, dead, ttl, meta, events, outbox, wake
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- Returns      { code, state }
--              code: 1 cancelled, -1 not found, -6 already finished
--              state: the state name before the call ('' when not found)
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/state.lua
--#include lib/finish.lua

local now = clock_now(ARGV[1])
local id = ARGV[2]
local job = job_load(id)
if not job then
  return {C_NOT_FOUND, ''}
end
local before = state_name(id, job)
local st = job[F_STATE]
if st == ST_DONE or st == ST_CANCELLED or st == ST_EXPIRED then
  return {C_ALREADY_DONE, before}
end
unlink(id, job)
finish(id, job, ST_CANCELLED, now, settings_load())
note('cancelled', id)
events_flush(now)
return {C_OK, before}
