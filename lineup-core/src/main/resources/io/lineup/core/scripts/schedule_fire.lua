-- schedule_fire: publishes the jobs of due schedule ticks, each schedule only while its state is
-- still at the rev its caller read (compare-and-set; revs are never reused in a queue, so a schedule
-- deleted and made again does not pass for the one read), and moves it to its next tick in the same
-- call. So engines racing for one tick publish its job once: the first call moves the schedule, the
-- others find it moved and write nothing. A job's id is derived from the schedule's name and the
-- tick, so a tick whose job exists already (a repeat) makes none.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- KEYS[13]     the queue's schedule due set (schedule name -> next tick, epoch ms)
-- KEYS[14]     the queue's schedule state hash (schedule name -> state text, lib/schedule.lua)
-- KEYS[15..]   each entry's history list, in entry order
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      lead in ms: a tick up to this much after now is fired now, its job due at its tick
--              (run-at), so that it is in the line, as a delayed job, when its tick comes
-- ARGV[3]      number of entries e; then per entry 10 values, then its jobs and skipped ticks:
--                name, expected rev, due tick (epoch ms: the first tick it publishes or skips),
--                next tick (epoch ms, -1 = the schedule ends), max runs (-1 = none), history size
--                (0..1000), payload (bytes), job options as 'priority,max attempts,time-to-run
--                ms,TTL ms' (0 = the queue's setting, or no TTL), then ',key' when the jobs have a
--                fairness key (entries with the same text share them), then the counts j (jobs)
--                and s (skipped ticks);
--                then j times 3 values: job id, tick (epoch ms), run-at (epoch ms: tick + jitter);
--                then s times 2 values: the id the skipped tick's job would have, tick (epoch ms)
-- Returns      { now, now_us, earliest, entry... }
--              now: the clock's time (ms); now_us: the microseconds the Redis clock was past now
--              (0 with the test clock); earliest: the queue's earliest due tick after the call
--              (epoch ms, -1 none); then one group per entry, in entry order:
--   entry = { code, published }
--              code: 1 fired, 0 moved (the schedule is not where the caller read it: changed,
--              fired by another engine, paused, ended or deleted; nothing written), 3 early (its
--              due tick is after now + lead; nothing written); published: the jobs it published (a
--              repeated id counts none)
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/line.lua
--#include lib/make.lua
--#include lib/events.lua
--#include lib/schedule.lua

local tonumber = tonumber
local now, now_us = clock_now(ARGV[1])
local now_text = int_text(now)
local lead = tonumber(ARGV[2])
local e = tonumber(ARGV[3])
local out = {now, now_us, -1}
local plan = {}         -- per entry: its values, parsed
local names = {}
local total = 0         -- jobs to make at most, for one reservation of arrival numbers
local at = 4
for i = 1, e do
  local p = {
    name = ARGV[at], rev = tonumber(ARGV[at + 1]), due = tonumber(ARGV[at + 2]), next = tonumber(ARGV[at + 3]),
    max_runs = tonumber(ARGV[at + 4]), history = tonumber(ARGV[at + 5]), payload = ARGV[at + 6],
    options = ARGV[at + 7], jobs = tonumber(ARGV[at + 8]), skipped = tonumber(ARGV[at + 9]),
    first = at + 10,
  }
  at = p.first + p.jobs * 3 + p.skipped * 2
  plan[i] = p
  names[i] = p.name
  total = total + p.jobs
end

local states = redis.call('HMGET', KEYS[14], unpack(names))
-- Which of the jobs' ids are taken, in one HMGET: normally none is (a taken id is a repeat).
local ids = {}
for i = 1, e do
  local p = plan[i]
  for k = 0, p.jobs - 1 do
    ids[#ids + 1] = ARGV[p.first + k * 3]
  end
end
local taken = {}
if #ids > 0 then
  local found = redis.call('HMGET', K_JOBS, unpack(ids))
  for k = 1, #ids do
    if found[k] then
      taken[ids[k]] = true
    end
  end
end
-- Fresh revs for the entries, from the queue's counter (lib/schedule.lua).
local rev = redis.call('HINCRBY', KEYS[14], SCHEDULE_REV_FIELD, e) - e
local seq = total > 0 and arrivals_reserve(total) or 0
local sets = {}         -- job options text -> option set, for jobs due at once
local due_pairs, ended, state_pairs = {}, {}, {}
for i = 1, e do
  local p = plan[i]
  local code, published = 0, 0
  local state = schedule_state(states[i])
  if state and state.rev == p.rev and state.flag == 'a' then
    if p.due > now + lead then
      -- The caller's clock ran ahead of this one: nothing is due yet.
      code = 3
    else
      code = 1
      local entries = {}      -- history, oldest first
      for k = 0, p.skipped - 1 do
        local b = p.first + p.jobs * 3 + k * 2
        entries[#entries + 1] = ARGV[b + 1] .. ' ' .. now_text .. ' S ' .. ARGV[b]
      end
      for k = 0, p.jobs - 1 do
        local b = p.first + k * 3
        local id, tick = ARGV[b], ARGV[b + 1]
        if p.max_runs >= 0 and state.runs >= p.max_runs then
          break
        end
        if taken[id] then
          entries[#entries + 1] = tick .. ' ' .. now_text .. ' D ' .. id
        else
          local run_at = tonumber(ARGV[b + 2])
          local set
          if run_at <= now then
            set = sets[p.options]
          end
          if not set then
            local priority, attempts, ttr, ttl, key = string.match(p.options, '^(%-?%d+),(%d+),(%d+),(%d+),?(.*)$')
            set = make_options(now, tonumber(priority), -1, run_at <= now and -1 or run_at, tonumber(attempts),
              tonumber(ttr), tonumber(ttl), '0', key)
            if run_at <= now then
              sets[p.options] = set
            end
          end
          make_job(id, p.payload, set, seq)
          taken[id] = true
          seq = seq + 1
          published = published + 1
          state.runs = state.runs + 1
          entries[#entries + 1] = tick .. ' ' .. now_text .. ' P ' .. id
        end
        state.last = tonumber(tick)
      end
      if p.next < 0 or (p.max_runs >= 0 and state.runs >= p.max_runs) then
        state.flag = 'e'
        ended[#ended + 1] = p.name
      else
        due_pairs[#due_pairs + 1] = int_text(p.next)
        due_pairs[#due_pairs + 1] = p.name
      end
      state.rev = rev + i
      state_pairs[#state_pairs + 1] = p.name
      state_pairs[#state_pairs + 1] = schedule_state_text(state)
      -- The history is cut back to its size once it holds twice that many (ScheduleStore reads
      -- only the size's newest), so that most pushes cost one command.
      if p.history == 0 then
        redis.call('DEL', KEYS[14 + i])
      elseif #entries > 0 and redis.call('LPUSH', KEYS[14 + i], unpack(entries)) >= 2 * p.history then
        redis.call('LTRIM', KEYS[14 + i], 0, p.history - 1)
      end
    end
  end
  out[#out + 1] = code
  out[#out + 1] = published
end

if #due_pairs > 0 then
  redis.call('ZADD', KEYS[13], unpack(due_pairs))
end
if #ended > 0 then
  redis.call('ZREM', KEYS[13], unpack(ended))
end
if #state_pairs > 0 then
  redis.call('HSET', KEYS[14], unpack(state_pairs))
end
make_write(nil)
events_flush(now)
local first = redis.call('ZRANGE', KEYS[13], 0, 0, 'WITHSCORES')
if first[2] then
  out[3] = tonumber(first[2])
end
return out
