-- publish: adds jobs to a queue, each atomically; an id or unique key seen before returns that job.
--
-- KEYS[1..11]  queue keys (lib/keys.lua); KEYS[12..] unique-key locks named by the jobs below
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      number of jobs n, then 10 values per job:
--                id ('' = generate: '~' and the base-62 arrival number), payload (bytes), priority (-255..255), delay (ms, -1 none), run-at (epoch ms, -1 none),
--                max attempts (0 = queue setting), time-to-run (ms, 0 = queue setting),
--                TTL (ms from now, 0 = none), unique-key index into KEYS (0 = none), unique window (ms)
-- Returns      5 values per job: id, code (1 = created, 2 = existed already), state name,
--              due (epoch ms), position in the ready line (-1 when not ready)
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua

local BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

-- Generated ids are short because every waiting job stores its id twice (hash field and line
-- member); '~' is outside the characters a caller's id may use, so the two never collide.
local function base62_id(n)
  local digits = {}
  while n > 0 do
    local d = n % 62
    table.insert(digits, 1, string.sub(BASE62, d + 1, d + 1))
    n = (n - d) / 62
  end
  return '~' .. table.concat(digits)
end

local now = clock_now(ARGV[1])
local n = tonumber(ARGV[2])

-- One counter update per call, not per job: each job's arrival number is reserved here, and a
-- generated id is that number (unique: arrival numbers are never reused).
local next_seq = arrivals_reserve(n)

-- A job that existed before this call: its state as Redis has it.
local function existing(id)
  local job = job_load(id)
  if not job then
    return {id, C_EXISTS, 'UNKNOWN', 0, -1}
  end
  local due = job[F_DUE]
  if not present(due) then
    due = job[F_CREATED]
  end
  return {id, C_EXISTS, state_name(id, job), due, position_of(id)}
end

-- New jobs are written together after the loop (one HSET, one ZADD per line), so a job created
-- earlier in this call is found here rather than in Redis.
local created = {}        -- id -> its result row
local records = {}        -- HSET field/value pairs
local ready = {}          -- ZADD score/member pairs for the ready line
local delayed = {}        -- ZADD score/member pairs for the delayed set
local bands = {}          -- priority -> { first id of this call in that band, rows in arrival order }
local band_order = {}
local rows = {}

for i = 0, n - 1 do
  local base = 3 + i * 10
  local id = ARGV[base]
  local generated = id == ''
  if generated then
    id = base62_id(next_seq + i)
  end
  local unique_index = tonumber(ARGV[base + 8])
  local prior = nil
  if not generated and (created[id] or redis.call('HEXISTS', K_JOBS, id) == 1) then
    prior = id
  elseif unique_index > 0 then
    local holder = redis.call('GET', KEYS[unique_index])
    if holder and (created[holder] or redis.call('HEXISTS', K_JOBS, holder) == 1) then
      prior = holder
    end
  end
  if prior then
    local first = created[prior]
    if first then
      rows[#rows + 1] = {prior, C_EXISTS, first[3], first[4], first}
    else
      rows[#rows + 1] = existing(prior)
    end
  else
    local priority = tonumber(ARGV[base + 2])
    local delay, run_at = tonumber(ARGV[base + 3]), tonumber(ARGV[base + 4])
    local ttl = tonumber(ARGV[base + 7])
    local due = now
    if run_at >= 0 then
      due = run_at
    elseif delay > 0 then
      due = now + delay
    end
    local job = {ARGV[base + 1], now, priority, 0, ST_WAITING, tonumber(ARGV[base + 5]), tonumber(ARGV[base + 6])}
    if due > now then
      job[F_DUE] = due
    end
    if ttl > 0 then
      job[F_EXPIRES] = now + ttl
      redis.call('ZADD', K_TTL, now + ttl, id)
    end
    records[#records + 1] = id
    records[#records + 1] = job_pack(job)
    if unique_index > 0 then
      redis.call('SET', KEYS[unique_index], id, 'PX', ARGV[base + 9])
    end
    local row
    if due > now then
      delayed[#delayed + 1] = due
      delayed[#delayed + 1] = id
      row = {id, C_OK, 'DELAYED', due, -1}
    else
      ready[#ready + 1] = (PRIORITY_MAX - priority) * ARRIVAL_SPAN + next_seq + i
      ready[#ready + 1] = id
      row = {id, C_OK, 'READY', due, -1}
      local band = bands[priority]
      if not band then
        band = {id, {}}
        bands[priority] = band
        band_order[#band_order + 1] = priority
      end
      band[2][#band[2] + 1] = row
    end
    created[id] = row
    rows[#rows + 1] = row
    note('published', id)
  end
end

if #records > 0 then
  redis.call('HSET', K_JOBS, unpack(records))
end
if #ready > 0 then
  redis.call('ZADD', K_READY, unpack(ready))
  -- This call's jobs of one priority arrived last in that band, so their ranks follow each other.
  for _, priority in ipairs(band_order) do
    local band = bands[priority]
    local rank = redis.call('ZRANK', K_READY, band[1])
    for k, row in ipairs(band[2]) do
      row[5] = rank + k - 1
    end
  end
  wake()
end
if #delayed > 0 then
  redis.call('ZADD', K_DELAYED, unpack(delayed))
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0)
  if created[first[1]] then
    wake()
  end
end
events_flush(now)

local out = {}
for _, row in ipairs(rows) do
  local copy_of = row[5]
  if type(copy_of) == 'table' then
    -- A second mention of a job created earlier in this call: same answer, flagged as existing.
    row[5] = copy_of[5]
  end
  for k = 1, 5 do
    out[#out + 1] = row[k]
  end
end
return out
