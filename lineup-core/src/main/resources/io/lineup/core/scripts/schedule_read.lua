-- schedule_read: reads a queue's schedules as they stand (spec, state and due tick of each), with
-- the clock's time, in one call: for the engine's reads and for its driver, which reads the
-- schedules due by a time.
--
-- KEYS[1]      the queue's schedule due set (schedule name -> next tick, epoch ms)
-- KEYS[2]      the queue's schedule spec hash (schedule name -> spec, ScheduleCodec.java)
-- KEYS[3]      the queue's schedule state hash (schedule name -> state text, lib/schedule.lua)
-- Touches      of the queue keys: none
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      what to read: 'all'; 'names', then ARGV[3..] the names; or 'due', then ARGV[3] the
--              horizon (ms after now; the schedules due by now + horizon) and ARGV[4] the most to
--              read
-- Returns      { now, earliest, schedule... }
--              now: the clock's time (ms); earliest: the queue's earliest due tick (epoch ms, -1
--              none); then one group per schedule found (a name without one is left out):
--   schedule = { name, spec, state, due }
--              due: the schedule's due tick as text, '' when it has none (paused, ended)
--#include lib/clock.lua

local now = clock_now(ARGV[1])
local mode = ARGV[2]
local out = {now, -1}
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if first[2] then
  out[2] = tonumber(first[2])
end

local function add(name)
  local spec = redis.call('HGET', KEYS[2], name)
  if not spec then
    return
  end
  out[#out + 1] = name
  out[#out + 1] = spec
  out[#out + 1] = redis.call('HGET', KEYS[3], name) or ''
  out[#out + 1] = redis.call('ZSCORE', KEYS[1], name) or ''
end

if mode == 'all' then
  for _, name in ipairs(redis.call('HKEYS', KEYS[2])) do
    add(name)
  end
elseif mode == 'names' then
  for i = 3, #ARGV do
    add(ARGV[i])
  end
else
  local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', int_text(now + tonumber(ARGV[3])), 'LIMIT', 0,
    tonumber(ARGV[4]))
  for _, name in ipairs(due) do
    add(name)
  end
end
return out
