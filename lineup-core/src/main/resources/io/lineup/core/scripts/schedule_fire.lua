-- schedule_fire: publishes the jobs of due schedule ticks, each schedule only while it still stands
-- where the caller read it (compare-and-set on its state's rev and its due tick), and moves it to
-- its next tick in the same call. So engines racing for one tick publish its job once: the first
-- call moves the schedule, the others find it moved and write nothing. A job's id is derived from
-- the schedule's name and the tick, so a tick whose job exists already (a repeat) makes none.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- KEYS[13]     the queue's schedule due set (schedule name -> next tick, epoch ms)
-- KEYS[14]     the queue's schedule state hash (schedule name -> state text, lib/schedule.lua)
-- KEYS[15..]   each entry's history list, in entry order
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      number of entries e; then per entry 12 values and its jobs and skipped ticks:
--                name, expected rev, expected due tick (epoch ms), next tick (epoch ms, -1 = the
--                schedule ends), max runs (-1 = none), history size (0..1000), payload (bytes),
--                priority (-255..255), max attempts (0 = queue setting), time-to-run (ms, 0 = queue
--                setting), TTL (ms, 0 = none), then the counts j (jobs) and s (skipped ticks);
--                then j times 3 values: job id, tick (epoch ms), run-at (epoch ms: tick + jitter);
--                then s times 2 values: the id the skipped tick's job would have, tick (epoch ms)
-- Returns      { now, earliest, code_1, published_1, code_2, published_2, ... }
--              now: the clock's time (ms); earliest: the queue's earliest due tick after the call
--              (epoch ms, -1 none); per entry: code 1 fired, 0 moved (the schedule is not where
--              the caller read it: changed, fired by another engine, paused, ended or deleted;
--              nothing written), 3 early (its due tick is after now; nothing written), and the
--              number of jobs it published (a repeated id counts none)
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/line.lua
--#include lib/events.lua
--#include lib/make.lua
--#include lib/schedule.lua

local tonumber = tonumber
local FIXED = 12
local now = clock_now(ARGV[1])
local e = tonumber(ARGV[2])
local out = {now, -1}
local plan = {}         -- per entry: its values, parsed
local total = 0         -- jobs to make at most, for one reservation of arrival numbers
local at = 3
for i = 1, e do
  local p = {
    name = ARGV[at], rev = tonumber(ARGV[at + 1]), due = ARGV[at + 2], next = tonumber(ARGV[at + 3]),
    max_runs = tonumber(ARGV[at + 4]), history = tonumber(ARGV[at + 5]), payload = ARGV[at + 6],
    priority = tonumber(ARGV[at + 7]), max_attempts = tonumber(ARGV[at + 8]), ttr = tonumber(ARGV[at + 9]),
    ttl = tonumber(ARGV[at + 10]), jobs = tonumber(ARGV[at + 11]), skipped = tonumber(ARGV[at + 12]),
    first = at + 13,
  }
  at = p.first + p.jobs * 3 + p.skipped * 2
  plan[i] = p
  total = total + p.jobs
end

local seq = total > 0 and arrivals_reserve(total) or 0
for i = 1, e do
  local p = plan[i]
  local code, published = 0, 0
  local state = schedule_state(redis.call('HGET', KEYS[14], p.name))
  local due = redis.call('ZSCORE', KEYS[13], p.name)
  if state and state.rev == p.rev and state.flag == 'a' and due and tonumber(due) == tonumber(p.due) then
    if tonumber(p.due) > now then
      -- The caller's clock ran ahead of this one: nothing is due yet.
      code = 3
    else
      code = 1
      local entries = {}      -- history, oldest first
      for k = 0, p.skipped - 1 do
        local b = p.first + p.jobs * 3 + k * 2
        entries[#entries + 1] = ARGV[b + 1] .. ' ' .. int_text(now) .. ' S ' .. ARGV[b]
      end
      for k = 0, p.jobs - 1 do
        local b = p.first + k * 3
        local id, tick = ARGV[b], ARGV[b + 1]
        if p.max_runs >= 0 and state.runs >= p.max_runs then
          break
        end
        if redis.call('HEXISTS', K_JOBS, id) == 1 then
          entries[#entries + 1] = tick .. ' ' .. int_text(now) .. ' D ' .. id
        else
          local set = make_options(now, p.priority, -1, tonumber(ARGV[b + 2]), p.max_attempts, p.ttr, p.ttl, '0')
          make_job(id, p.payload, set, seq)
          seq = seq + 1
          published = published + 1
          state.runs = state.runs + 1
          entries[#entries + 1] = tick .. ' ' .. int_text(now) .. ' P ' .. id
        end
        state.last = tonumber(tick)
      end
      local ended = p.next < 0 or (p.max_runs >= 0 and state.runs >= p.max_runs)
      if ended then
        state.flag = 'e'
        redis.call('ZREM', KEYS[13], p.name)
      else
        redis.call('ZADD', KEYS[13], int_text(p.next), p.name)
      end
      state.rev = state.rev + 1
      redis.call('HSET', KEYS[14], p.name, schedule_state_text(state))
      if p.history > 0 and #entries > 0 then
        redis.call('LPUSH', KEYS[14 + i], unpack(entries))
        redis.call('LTRIM', KEYS[14 + i], 0, p.history - 1)
      elseif p.history == 0 then
        redis.call('DEL', KEYS[14 + i])
      end
    end
  end
  out[#out + 1] = code
  out[#out + 1] = published
end

make_write(nil)
events_flush(now)
local first = redis.call('ZRANGE', KEYS[13], 0, 0, 'WITHSCORES')
if first[2] then
  out[2] = tonumber(first[2])
end
return out
