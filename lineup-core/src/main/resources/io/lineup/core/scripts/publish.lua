-- publish: adds jobs to a queue, each atomically; an id or unique key seen before returns that job.
--
-- KEYS[1..12]  queue keys (lib/keys.lua); KEYS[13..] the unique-key locks of the jobs below that
--              have one, in job order
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      expected fence: the decimal text of the queue's fence (meta field 'fence') this
--              call is bound to, or '' for none; a call whose fence differs writes nothing
-- ARGV[3]      number of jobs n
-- ARGV[4]      number of option sets m, then 9 values per set (jobs of one call mostly share them):
--                priority (-255..255), delay (ms, -1 none), run-at (epoch ms, -1 none),
--                max attempts (0 = queue setting), time-to-run (ms, 0 = queue setting),
--                TTL (ms from now, 0 = none), unique window (ms; 0 = the job has no unique key),
--                fairness key ('' = none; read by a fair queue only, lib/fair.lua),
--                trace context (W3C traceparent, then a space and the tracestate if any; '' =
--                none; stored as is, lib/job.lua F_TRACE)
-- then the form: 'plain' when every job takes a generated id and option set 1, which has no unique
--              key, else 'full'
-- then per job, plain: its payload (bytes); full: 3 values, its id ('' = generate: '~' and the
--              base-62 arrival number), payload (bytes) and option set (1..m)
-- Returns      full form: { id, code, state, due_ms, position } for each job, in job order, in one
--              flat list; code: 1 created, 2 existed already; state: the state name ('UNKNOWN'
--              when a unique key matched a job whose record is gone); due_ms: epoch ms; position:
--              in the ready line (-1 when not ready)
--              plain form: all the jobs were created, with the ids of arrivals first_arrival ..
--              first_arrival + n - 1 in job order, one state and due time, and consecutive positions
--              from first_position (-1 when not ready); mark is '~', which no id is; in a fair
--              queue, whose jobs are not at consecutive places, first_position is -2 and a sixth
--              value follows, the table of each job's position, then a seventh, the table of the
--              jobs' ids (a fair queue's ready jobs take ids by turn, lib/make.lua):
--   plain = { mark, first_arrival, state, due_ms, first_position }
--              fence mismatch (ARGV[2] not '' and not the queue's fence): nothing written, and
--              mark is '!', which no id is; fence: the queue's fence ('' when it has none):
--   fenced = { mark, fence }
--              key limit (fair queue): a key would have more than its max_waiting jobs waiting;
--              nothing written, and mark is '#', which no id is:
--   refused = { mark, key, max_waiting, waiting }
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua
--#include lib/make.lua
--#include lib/fair.lua

-- This loop runs once per job, so it avoids what costs in Redis's Lua: global lookups (locals
-- below), number parsing (options come once per set), building a table per job, and making strings
-- it can look up (digits) or make once per call (a payload's header, a score's leading digits).
local tonumber = tonumber
local QUEUE_KEYS = 12

-- An option's number from its text: the defaults ('0', '-1') without parsing, which cost a single
-- publish about 1 % of its Redis work per value (tonumber).
local function option_number(text)
  if text == '0' then
    return 0
  elseif text == '-1' then
    return -1
  end
  return tonumber(text)
end

-- The fence first, before anything is written: a call bound to another fence than the queue's
-- leaves no trace (a fence is the caller's view of who owns the queue now, e.g. a room's
-- generation). A call without one pays only this comparison.
local expected = ARGV[2]
if expected ~= '' then
  local fence = redis.call('HGET', K_META, 'fence')
  if fence ~= expected then
    return {'!', fence or ''}
  end
end

local now = clock_now(ARGV[1])
local n = tonumber(ARGV[3])
local m = tonumber(ARGV[4])

-- Each option set once (lib/make.lua).
local sets = {}
for s = 1, m do
  local b = 5 + (s - 1) * 9
  sets[tostring(s)] = make_options(now, option_number(ARGV[b]), option_number(ARGV[b + 1]),
    option_number(ARGV[b + 2]), option_number(ARGV[b + 3]), option_number(ARGV[b + 4]),
    option_number(ARGV[b + 5]), ARGV[b + 6], ARGV[b + 7], ARGV[b + 8])
end
local plain = ARGV[5 + m * 9] == 'plain'
local jobs_at = 6 + m * 9

-- A fair queue refuses the whole call when it would bring a key past its max_waiting jobs (every
-- job named counts, before ids seen already are told apart).
if sets['1'].fair then
  local adding = {}
  if plain then
    adding[sets['1'].key] = n
  else
    for i = 0, n - 1 do
      local key = sets[ARGV[jobs_at + i * 3 + 2]].key
      adding[key] = (adding[key] or 0) + 1
    end
  end
  for key, more in pairs(adding) do
    local max = fair_settings(key).max_waiting
    if max > 0 then
      local waiting = fair_count_of('waiting', key)
      if waiting + more > max then
        return {'#', key, max, waiting}
      end
    end
  end
end

-- One counter update per call, not per job: each job's arrival number is reserved here, and a
-- generated id is that number (unique: arrival numbers are never reused).
local next_seq = arrivals_reserve(n)

local out = {}            -- full form: 5 values per job, as returned
local bands = {}          -- priority -> { first id of this call in that band, out positions, rank }
local band_order = {}
local copies = {}         -- full form: out positions of repeated mentions and of their first

if plain then
  -- Nothing to look up: every job is new.
  local set = sets['1']
  for i = 0, n - 1 do
    make_job(arrival_id(next_seq + i), ARGV[jobs_at + i], set, next_seq + i, true)
  end
  if set.ready then
    bands[set.priority] = {made_ids[1], {}}
    band_order[1] = set.priority
  end
else
  local created = {}      -- id -> where its values start in out, for ids that may come again
  local locks_used = 0
  for i = 0, n - 1 do
    local base = jobs_at + i * 3
    local id = ARGV[base]
    local set = sets[ARGV[base + 2]]
    local at = i * 5 + 1
    local generated = id == ''
    if generated then
      id = arrival_id(next_seq + i)
    end
    local lock = nil        -- index in KEYS of this job's unique-key lock
    if set.unique then
      locks_used = locks_used + 1
      lock = QUEUE_KEYS + locks_used
    end
    local prior = nil
    -- A caller-given id never starts with '~', so its record is in K_JOBS itself (lib/job.lua).
    if not generated and (created[id] or redis.call('HEXISTS', K_JOBS, id) == 1) then
      prior = id
    elseif lock then
      local holder = redis.call('GET', KEYS[lock])
      if holder and (created[holder] or record_exists(holder)) then
        prior = holder
      end
    end
    if prior then
      local first = created[prior]
      if first then
        out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] =
          prior, C_EXISTS, out[first + 2], out[first + 3], -1
        copies[#copies + 1] = {at, first}
      else
        local job = job_load(prior)
        if not job then
          out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] = prior, C_EXISTS, 'UNKNOWN', 0, -1
        else
          local due = job[F_DUE]
          if not present(due) then
            due = job[F_CREATED]
          end
          out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] =
            prior, C_EXISTS, state_name(prior, job), due, position_of(prior)
        end
      end
    else
      id = make_job(id, ARGV[base + 1], set, next_seq + i, generated)
      if lock then
        redis.call('SET', KEYS[lock], id, 'PX', set.window)
      end
      out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] =
        id, C_OK, set.state, set.due, -1
      if set.ready then
        local band = bands[set.priority]
        if not band then
          band = {id, {}}
          bands[set.priority] = band
          band_order[#band_order + 1] = set.priority
        end
        band[2][#band[2] + 1] = at
      end
      if not generated or lock then
        created[id] = at
      end
    end
  end
end
local fair_positions -- a fair queue's positions of the plain form's jobs
make_write(function()
  if sets['1'].fair then
    -- A fair line places each job by its key's turn: each is asked for.
    if plain then
      fair_positions = {}
      for i = 1, made_count do
        fair_positions[i] = redis.call('ZRANK', K_READY, made_ids[i]) or -1
      end
    else
      for _, priority in ipairs(band_order) do
        for _, at in ipairs(bands[priority][2]) do
          out[at + 4] = redis.call('ZRANK', K_READY, out[at]) or -1
        end
      end
    end
    return
  end
  -- This call's jobs of one priority arrived last in that band, so their ranks follow each other.
  for _, priority in ipairs(band_order) do
    local band = bands[priority]
    band.rank = redis.call('ZRANK', K_READY, band[1])
    for k, at in ipairs(band[2]) do
      out[at + 4] = band.rank + k - 1
    end
  end
end)
events_flush(now)
if plain then
  local set = sets['1']
  local band = bands[set.priority]
  if fair_positions then
    return {'~', next_seq, set.state, set.due, -2, fair_positions, made_ids}
  end
  return {'~', next_seq, set.state, set.due, band and band.rank or -1}
end
for _, copy in ipairs(copies) do
  -- A second mention of a job created earlier in this call: same answer, flagged as existing.
  out[copy[1] + 4] = out[copy[2] + 4]
end
return out
