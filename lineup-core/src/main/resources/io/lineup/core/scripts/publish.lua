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
local out = {}
local woke = false

-- One counter update per call, not per job: each job's arrival number is reserved here, and a
-- generated id is that number (unique: arrival numbers are never reused).
local next_seq = arrivals_reserve(n)

local function existing(id, code)
  local job = job_load(id)
  if not job then
    out[#out + 1] = id
    out[#out + 1] = code
    out[#out + 1] = 'UNKNOWN'
    out[#out + 1] = 0
    out[#out + 1] = -1
    return
  end
  local due = job[F_DUE]
  if not present(due) then
    due = job[F_CREATED]
  end
  out[#out + 1] = id
  out[#out + 1] = code
  out[#out + 1] = state_name(id, job)
  out[#out + 1] = due
  out[#out + 1] = position_of(id)
end

for i = 0, n - 1 do
  local base = 3 + i * 10
  local id = ARGV[base]
  local generated = id == ''
  if generated then
    id = base62_id(next_seq + i)
  end
  local unique_index = tonumber(ARGV[base + 8])
  local prior = nil
  if not generated and redis.call('HEXISTS', K_JOBS, id) == 1 then
    prior = id
  elseif unique_index > 0 then
    local holder = redis.call('GET', KEYS[unique_index])
    if holder and redis.call('HEXISTS', K_JOBS, holder) == 1 then
      prior = holder
    end
  end
  if prior then
    existing(prior, C_EXISTS)
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
    job_store(id, job)
    if unique_index > 0 then
      redis.call('SET', KEYS[unique_index], id, 'PX', ARGV[base + 9])
    end
    local state, position = 'READY', -1
    if due > now then
      state = 'DELAYED'
      delay_add(id, due)
    else
      line_add_at(id, priority, next_seq + i)
      position = redis.call('ZRANK', K_READY, id)
      woke = true
    end
    note('published', id)
    out[#out + 1] = id
    out[#out + 1] = C_OK
    out[#out + 1] = state
    out[#out + 1] = due
    out[#out + 1] = position
  end
end
if woke then
  wake()
end
events_flush(now)
return out
