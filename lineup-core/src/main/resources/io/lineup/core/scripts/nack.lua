-- nack: a leased job failed; it goes back to the line after a delay (explicit or the queue's
-- backoff), or to dead letters when out of attempts.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, dead, ttl, meta, wake, events, outbox
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      lease token
-- ARGV[4]      error text
-- ARGV[5]      retry delay (ms, -1 = the queue's backoff policy)
-- ARGV[6]      rand: a number in [0, 1) for backoff jitter
-- Returns      { code, state, due_ms }
--              code: codes.lua; state: the state name after the nack ('DELAYED', 'READY' or 'DEAD',
--              '' unless code is 1); due_ms: when it is due again (epoch ms)
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/retry.lua
--#include lib/service.lua

local now = clock_now(ARGV[1])
local id, token = ARGV[2], ARGV[3]
local job, code = job_held(id, token)
if not job then
  return {code, '', 0}
end
local s = settings_load()
local state, due = retry_or_bury(id, job, now, s, ARGV[4], tonumber(ARGV[5]), tonumber(ARGV[6]), END_NACKED)
-- A nacked job was served as much as an acked one: it left the line ahead of those behind it.
service_note(now, 1)
if s.concurrency > 0 then
  wake()
end
events_flush(now)
local name = 'DEAD'
if state == ST_WAITING then
  name = 'DELAYED'
  if due <= now then
    name = 'READY'
  end
end
return {C_OK, name, due}
