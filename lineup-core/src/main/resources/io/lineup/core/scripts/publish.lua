-- publish: adds jobs to a queue, each atomically; an id or unique key seen before returns that job.
--
-- KEYS[1..12]  queue keys (lib/keys.lua); KEYS[13..] the unique-key locks of the jobs below that
--              have one, in job order
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      expected fence: the decimal text of the queue's fence (meta field 'fence') this
--              call is bound to, or '' for none; a call whose fence differs writes nothing
-- ARGV[3]      number of jobs n
-- ARGV[4]      number of option sets m, then 7 values per set (jobs of one call mostly share them):
--                priority (-255..255), delay (ms, -1 none), run-at (epoch ms, -1 none),
--                max attempts (0 = queue setting), time-to-run (ms, 0 = queue setting),
--                TTL (ms from now, 0 = none), unique window (ms; 0 = the job has no unique key)
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
--              from first_position (-1 when not ready); mark is '~', which no id is:
--   plain = { mark, first_arrival, state, due_ms, first_position }
--              fence mismatch (ARGV[2] not '' and not the queue's fence): nothing written, and
--              mark is '!', which no id is; fence: the queue's fence ('' when it has none):
--   fenced = { mark, fence }
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua

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

-- Each option set once: the job's due time and line score, and its stored record but for the
-- payload (the msgpack array header, then every field after the payload, trailing defaults dropped).
local sets = {}
for s = 1, m do
  local b = 5 + (s - 1) * 7
  local priority, delay, run_at = option_number(ARGV[b]), option_number(ARGV[b + 1]), option_number(ARGV[b + 2])
  local ttl = option_number(ARGV[b + 5])
  local due = now
  if run_at >= 0 then
    due = run_at
  elseif delay > 0 then
    due = now + delay
  end
  local fields = {now, priority, 0, ST_WAITING, option_number(ARGV[b + 3]), option_number(ARGV[b + 4]), 0, 0}
  if due > now then
    fields[F_DUE - 1] = due
  end
  local expires = 0
  if ttl > 0 then
    expires = now + ttl
    fields[F_EXPIRES - 1] = expires
  end
  local count = #fields
  while count > F_CREATED - 1 and not present(fields[count]) do
    count = count - 1
  end
  sets[tostring(s)] = {
    priority = priority,
    due = due,
    due_text = int_text(due),
    ready = due <= now,
    state = due <= now and 'READY' or 'DELAYED',
    expires = expires,
    expires_text = int_text(expires),
    window = ARGV[b + 6],
    unique = ARGV[b + 6] ~= '0',
    score = (PRIORITY_MAX - priority) * ARRIVAL_SPAN,
    head = string.char(0x90 + count + 1),
    tail = cmsgpack.pack(unpack(fields, 1, count)),
    scores = {},            -- score_text's cache
  }
end
local plain = ARGV[5 + m * 7] == 'plain'
local jobs_at = 6 + m * 7

-- One counter update per call, not per job: each job's arrival number is reserved here, and a
-- generated id is that number (unique: arrival numbers are never reused).
local next_seq = arrivals_reserve(n)

local records = {}        -- HSET field/value pairs
local ready = {}          -- ZADD score/member pairs for the ready line
local delayed = {}        -- ZADD score/member pairs for the delayed set
local expiring = {}       -- ZADD score/member pairs for the TTL set
local published = {}      -- ids of the jobs made, for their event
local headers = {}        -- payload length -> its msgpack header
local n_made, n_ready = 0, 0
local first_due = nil     -- earliest due time among this call's delayed jobs

-- Makes a new job: its record, its place in the line (its score made of its arrival seq) or in the
-- delayed set as its option set says, its TTL entry, and its id in the call's event.
local function make(id, payload, set, seq)
  local length = #payload
  local header = headers[length]
  if not header then
    header = str_header(length)
    headers[length] = header
  end
  local at = n_made * 2
  records[at + 1], records[at + 2] = id, set.head .. header .. payload .. set.tail
  if set.ready then
    ready[n_ready + 1], ready[n_ready + 2] = score_text(set.scores, set.score + seq), id
    n_ready = n_ready + 2
  else
    delayed[#delayed + 1] = set.due_text
    delayed[#delayed + 1] = id
    if not first_due or set.due < first_due then
      first_due = set.due
    end
  end
  if set.expires > 0 then
    expiring[#expiring + 1] = set.expires_text
    expiring[#expiring + 1] = id
  end
  n_made = n_made + 1
  published[n_made] = id
end

local out = {}            -- full form: 5 values per job, as returned
local bands = {}          -- priority -> { first id of this call in that band, out positions, rank }
local band_order = {}
local copies = {}         -- full form: out positions of repeated mentions and of their first

if plain then
  -- Nothing to look up: every job is new.
  local set = sets['1']
  for i = 0, n - 1 do
    make(arrival_id(next_seq + i), ARGV[jobs_at + i], set, next_seq + i)
  end
  if set.ready then
    bands[set.priority] = {published[1], {}}
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
      make(id, ARGV[base + 1], set, next_seq + i)
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
note_all('published', published)

if n_made > 0 then
  records_put(records)
end
if #expiring > 0 then
  redis.call('ZADD', K_TTL, unpack(expiring))
end
if n_ready > 0 then
  redis.call('ZADD', K_READY, unpack(ready))
  -- This call's jobs of one priority arrived last in that band, so their ranks follow each other.
  for _, priority in ipairs(band_order) do
    local band = bands[priority]
    band.rank = redis.call('ZRANK', K_READY, band[1])
    for k, at in ipairs(band[2]) do
      out[at + 4] = band.rank + k - 1
    end
  end
  wake()
end
if first_due then
  redis.call('ZADD', K_DELAYED, unpack(delayed))
  -- A job of this call became the earliest delayed one: waiting consumers must wait less.
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
  if tonumber(first[2]) >= first_due then
    wake()
  end
end
events_flush(now)
if plain then
  local set = sets['1']
  local band = bands[set.priority]
  return {'~', next_seq, set.state, set.due, band and band.rank or -1}
end
for _, copy in ipairs(copies) do
  -- A second mention of a job created earlier in this call: same answer, flagged as existing.
  out[copy[1] + 4] = out[copy[2] + 4]
end
return out
