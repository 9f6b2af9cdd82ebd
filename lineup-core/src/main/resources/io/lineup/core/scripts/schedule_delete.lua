-- schedule_delete: deletes a schedule: its spec, state, due tick and history (its jobs stay).
--
-- KEYS[1]      the queue's schedule due set (schedule name -> next tick, epoch ms)
-- KEYS[2]      the queue's schedule spec hash (schedule name -> spec, ScheduleCodec.java)
-- KEYS[3]      the queue's schedule state hash (schedule name -> state text, lib/schedule.lua)
-- KEYS[4]      the schedule's history list
-- Touches      of the queue keys: none
-- ARGV[1]      schedule name
-- Returns      { existed }: 1 when there was a schedule of that name, else 0

local name = ARGV[1]
local existed = redis.call('HDEL', KEYS[2], name)
redis.call('HDEL', KEYS[3], name)
redis.call('ZREM', KEYS[1], name)
redis.call('DEL', KEYS[4])
return {existed}
