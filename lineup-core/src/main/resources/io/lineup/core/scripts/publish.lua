-- publish: adds jobs to a queue, each atomically; an id or unique key seen before returns that job.
--
-- KEYS[1..12]  queue keys (lib/keys.lua); KEYS[13..] the unique-key locks of the jobs below that
--              have one, in job order
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      number of jobs n
-- ARGV[3]      number of option sets m, then 7 values per set (jobs of one call mostly share them):
--                priority (-255..255), delay (ms, -1 none), run-at (epoch ms, -1 none),
--                max attempts (0 = queue setting), time-to-run (ms, 0 = queue setting),
--                TTL (ms from now, 0 = none), unique window (ms; 0 = the job has no unique key)
-- then 3 values per job: id ('' = generate: '~' and the base-62 arrival number), payload (bytes),
--              option set (1..m)
-- Returns      { id, code, state, due_ms, position } for each job, in job order, in one flat list
--              code: 1 created, 2 existed already; state: the state name ('UNKNOWN' when a unique
--              key matched a job whose record is gone); due_ms: epoch ms; position: in the ready
--              line (-1 when not ready)
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua

-- This loop runs once per job, so it avoids what costs in Redis's Lua: global lookups (locals
-- below), number parsing (options come once per set) and building a table per job.
local sub, tonumber, pack = string.sub, tonumber, cmsgpack.pack
local QUEUE_KEYS = 12
local BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

local function base62(n)
  local digits = ''
  while n > 0 do
    local d = n % 62
    digits = sub(BASE62, d + 1, d + 1) .. digits
    n = (n - d) / 62
  end
  return digits
end

local now = clock_now(ARGV[1])
local n = tonumber(ARGV[2])
local m = tonumber(ARGV[3])

-- Each option set once: the job's due time and line score, and its stored record but for the
-- payload (the msgpack array header, then every field after the payload, trailing defaults dropped).
local sets = {}
for s = 1, m do
  local b = 4 + (s - 1) * 7
  local priority, delay, run_at = tonumber(ARGV[b]), tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2])
  local ttl = tonumber(ARGV[b + 5])
  local due = now
  if run_at >= 0 then
    due = run_at
  elseif delay > 0 then
    due = now + delay
  end
  local fields = {now, priority, 0, ST_WAITING, tonumber(ARGV[b + 3]), tonumber(ARGV[b + 4]), 0, 0}
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
    expires = expires,
    expires_text = int_text(expires),
    window = ARGV[b + 6],
    unique = ARGV[b + 6] ~= '0',
    score = (PRIORITY_MAX - priority) * ARRIVAL_SPAN,
    head = string.char(0x90 + count + 1),
    tail = pack(unpack(fields, 1, count)),
  }
end
local jobs_at = 4 + m * 7

-- One counter update per call, not per job: each job's arrival number is reserved here, and a
-- generated id is that number (unique: arrival numbers are never reused).
local next_seq = arrivals_reserve(n)

local out = {}            -- 5 values per job, as returned
local created = {}        -- id -> where its values start in out, for ids that may come again
local copies = {}         -- out positions of repeated mentions and of their first, to copy positions
local records = {}        -- HSET field/value pairs
local ready = {}          -- ZADD score/member pairs for the ready line
local delayed = {}        -- ZADD score/member pairs for the delayed set
local expiring = {}       -- ZADD score/member pairs for the TTL set
local bands = {}          -- priority -> { first id of this call in that band, out positions }
local band_order = {}
local first_due = nil     -- earliest due time among this call's delayed jobs
local locks_used = 0
local high, prefix = -1, '~'

for i = 0, n - 1 do
  local base = jobs_at + i * 3
  local id = ARGV[base]
  local set = sets[ARGV[base + 2]]
  local at = #out + 1
  local generated = id == ''
  if generated then
    -- Arrival numbers of one call are consecutive: only the last digit changes most of the time.
    local seq = next_seq + i
    local low = seq % 62
    local hi = (seq - low) / 62
    if hi ~= high then
      high, prefix = hi, '~' .. base62(hi)
    end
    id = prefix .. sub(BASE62, low + 1, low + 1)
  end
  local lock = nil          -- index in KEYS of this job's unique-key lock
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
    records[#records + 1] = id
    records[#records + 1] = set.head .. pack(ARGV[base + 1]) .. set.tail
    if set.expires > 0 then
      expiring[#expiring + 1] = set.expires_text
      expiring[#expiring + 1] = id
    end
    if lock then
      redis.call('SET', KEYS[lock], id, 'PX', set.window)
    end
    if set.ready then
      -- As text: cheaper than Redis formatting a number argument (lib/clock.lua).
      ready[#ready + 1] = int_text(set.score + next_seq + i)
      ready[#ready + 1] = id
      out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] = id, C_OK, 'READY', set.due, -1
      local band = bands[set.priority]
      if not band then
        band = {id, {}}
        bands[set.priority] = band
        band_order[#band_order + 1] = set.priority
      end
      band[2][#band[2] + 1] = at
    else
      delayed[#delayed + 1] = set.due_text
      delayed[#delayed + 1] = id
      out[at], out[at + 1], out[at + 2], out[at + 3], out[at + 4] = id, C_OK, 'DELAYED', set.due, -1
      if not first_due or set.due < first_due then
        first_due = set.due
      end
    end
    if not generated or lock then
      created[id] = at
    end
    note('published', id)
  end
end

if #records > 0 then
  records_put(records)
end
if #expiring > 0 then
  redis.call('ZADD', K_TTL, unpack(expiring))
end
if #ready > 0 then
  redis.call('ZADD', K_READY, unpack(ready))
  -- This call's jobs of one priority arrived last in that band, so their ranks follow each other.
  for _, priority in ipairs(band_order) do
    local band = bands[priority]
    local rank = redis.call('ZRANK', K_READY, band[1])
    for k, at in ipairs(band[2]) do
      out[at + 4] = rank + k - 1
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
for _, copy in ipairs(copies) do
  -- A second mention of a job created earlier in this call: same answer, flagged as existing.
  out[copy[1] + 4] = out[copy[2] + 4]
end
events_flush(now)
return out
