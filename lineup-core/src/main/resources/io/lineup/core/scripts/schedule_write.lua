-- schedule_write: writes a schedule's spec and state (an upsert, a pause, a resume) only while its
-- state still stands where the caller read it (compare-and-set on its rev), keeping the runs and
-- the last tick that fires counted meanwhile out of reach: a writer that lost the race reads again.
--
-- KEYS[1]      the queue's schedule due set (schedule name -> next tick, epoch ms)
-- KEYS[2]      the queue's schedule spec hash (schedule name -> spec, ScheduleCodec.java)
-- KEYS[3]      the queue's schedule state hash (schedule name -> state text, lib/schedule.lua)
-- Touches      of the queue keys: none
-- ARGV[1]      schedule name
-- ARGV[2]      expected rev ('' = the schedule must not exist yet)
-- ARGV[3]      spec (bytes)
-- ARGV[4]      version (upserts so far, this one included)
-- ARGV[5]      anchor (epoch ms)
-- ARGV[6]      flag: 'a' active, 'p' paused, 'e' ended
-- ARGV[7]      next tick (epoch ms; -1 = none, when the flag is not 'a')
-- Returns      { code, state }
--              code: 1 written, 0 moved (the state is not at the expected rev; nothing written);
--              state: the state text now stored ('' when none)
--#include lib/clock.lua
--#include lib/schedule.lua

local name = ARGV[1]
local current = redis.call('HGET', KEYS[3], name)
local state = schedule_state(current)
if (ARGV[2] == '' and current) or (ARGV[2] ~= '' and (not state or state.rev ~= tonumber(ARGV[2]))) then
  return {0, current or ''}
end
if not state then
  state = {runs = 0, last = -1}
end
state.rev = redis.call('HINCRBY', KEYS[3], SCHEDULE_REV_FIELD, 1)
state.version = tonumber(ARGV[4])
state.anchor = tonumber(ARGV[5])
state.flag = ARGV[6]
local text = schedule_state_text(state)
redis.call('HSET', KEYS[2], name, ARGV[3])
redis.call('HSET', KEYS[3], name, text)
local next_tick = tonumber(ARGV[7])
if state.flag == 'a' and next_tick >= 0 then
  redis.call('ZADD', KEYS[1], int_text(next_tick), name)
else
  redis.call('ZREM', KEYS[1], name)
end
return {1, text}
