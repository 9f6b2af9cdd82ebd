-- jobs_act: one action on each of a list of jobs of a queue, each job checked in its own state, so a
-- job that moved since it was listed is skipped (and said so) rather than acted on wrongly.
--   cancel   a ready, delayed or leased job becomes a cancelled tombstone (as cancel.lua); a leased
--            job's ack then answers CANCELLED
--   delete   a job in any state is removed with its record at once (an unfinished one is archived
--            as cancelled first, when archiving is on)
--   run_now  a delayed job joins the ready line now, at the back of its priority (in a fair queue,
--            at its key's next turn), as if it had fallen due
--   respawn  a dead job goes back to the line with its attempts reset (as respawn.lua)
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, finished, dead, ttl, meta, wake, events, outbox
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      action: 'cancel', 'delete', 'run_now' or 'respawn'
-- ARGV[3]      respawn: fresh TTL in ms from now (0 = none); ignored by the other actions
-- ARGV[4..]    job ids (at most 1,000)
-- Returns      { outcome... }: one per id, in the order given
--   outcome = { done, state }
--              done: 1 when the action was applied, 0 when the job was skipped; state: the job's
--              state name before the call (JobState), '' when it has no record
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua
--#include lib/finish.lua
--#include lib/respawn.lua

local now = clock_now(ARGV[1])
local action = ARGV[2]
local ttl = tonumber(ARGV[3])
if action ~= 'cancel' and action ~= 'delete' and action ~= 'run_now' and action ~= 'respawn' then
  return redis.error_reply('LINEUP unknown job action ' .. tostring(action))
end

local settings
local function queue_settings()
  settings = settings or settings_load()
  return settings
end

local out = {}
local woken = false
local to_run = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local job = job_load(id)
  local before = ''
  local done = 0
  if job then
    before = state_name(id, job)
    local st = job[F_STATE]
    local finished = st == ST_DONE or st == ST_CANCELLED or st == ST_EXPIRED
    if action == 'cancel' then
      if st == ST_WAITING or st == ST_LEASED then
        unlink(id, job)
        finish(id, job, ST_CANCELLED, now, queue_settings())
        note('cancelled', id)
        done = 1
      end
    elseif action == 'delete' then
      if finished then
        redis.call('ZREM', K_FINISHED, id)
      else
        unlink(id, job)
        if st ~= ST_DEAD then
          -- finish() archives it (when archiving is on) and drops its TTL entry; the record it
          -- keeps for retention goes at once below.
          finish(id, job, ST_CANCELLED, now, queue_settings())
          redis.call('ZREM', K_FINISHED, id)
        end
      end
      record_delete(id)
      note('deleted', id)
      done = 1
    elseif action == 'run_now' then
      if before == 'DELAYED' then
        -- Scored below any due time, so the promotion below takes these jobs first.
        redis.call('ZADD', K_DELAYED, -1, id)
        to_run[#to_run + 1] = id
        done = 1
      end
    elseif before == 'DEAD' and respawn_one(id, job, now, ttl) then
      woken = true
      done = 1
    end
  end
  out[#out + 1] = {done, before}
end
if #to_run > 0 and promote_due_quietly(now, #to_run) > 0 then
  woken = true
end
if woken then
  wake()
end
events_flush(now)
return out
