-- release: gives a leased job back without using it: it returns to the very place in the ready
-- line it was leased from, and the attempt is not counted.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, leased, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      lease token
-- Returns      { code }: codes.lua
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/fair.lua

local now = clock_now(ARGV[1])
local id, token = ARGV[2], ARGV[3]
local job, code = job_held(id, token)
if not job then
  return {code}
end
redis.call('ZREM', K_LEASED, id)
job[F_STATE] = ST_WAITING
job[F_ATTEMPTS] = job[F_ATTEMPTS] - 1
job[F_ENDED] = END_RELEASED
-- A job leased as publish wrote it has no score in its record: the lease left it out (lib/line.lua);
-- so did the lease of a fair queue's job whose key's entry holds its tag (lib/fair.lua).
local fair_key, fair_tag = false, nil
if fair_on() then
  fair_key, fair_tag = fair_entry_of(id)
end
local line = line_leased(id, job, fair_tag)
if fair_key then
  fair_unleased(fair_key, 'waiting')
end
if line and fair_key then
  fair_line_add(id, fair_key, job[F_PRIORITY], line)
elseif line then
  redis.call('ZADD', K_READY, line, id)
else
  line_add(id, job[F_PRIORITY])
end
job[F_LINE] = 0
job_store(id, job)
wake()
note('released', id)
events_flush(now)
return {C_OK}
