-- get: one job's record, state and position, and what its ETA is computed from (by the engine,
-- EtaEstimator.java). Due delayed jobs of the queue are promoted first, so a job past its due time
-- reads READY with its true position, not DELAYED until someone leases.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, meta, wake, events, rate
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- Returns      {} when unknown, else { state, payload, priority, attempts, max_attempts, ttr_ms,
--              created_ms, due_ms, expires_ms, started_ms, finished_ms, error, result, position,
--              lease_deadline_ms, now_ms, paused, rate_limit, concurrency_limit,
--              expected_service_ms, leased, done_per_s, rate_window, rate_period_ms, rate_burst,
--              key, key_ahead, key_rate, key_rate_period_ms, trace }
--              state: the state name; ttr_ms: time-to-run; *_ms times: epoch ms, 0 = none;
--              error: the last error text; position: -1 when not ready; paused: 1 or 0;
--              rate_limit, concurrency_limit, expected_service_ms, rate_period_ms, rate_burst:
--              the queue's settings;
--              leased: jobs leased now; done_per_s: completions per second (lib/service.lua),
--              oldest first, the last for the current second; rate_window: the rate limit's
--              window, a table of leases in the last second, ms since the oldest and since the
--              newest of them (lib/service.lua); leased, done_per_s and rate_window are 0, an
--              empty table and zeros when the job is not ready;
--              key: the job's fairness key ('' for none or when the queue is not fair,
--              lib/fair.lua); key_ahead: about how many jobs of its key are ahead of it (from its
--              key's tagger); key_rate, key_rate_period_ms: the key's rate limit, which bounds its
--              ETA; trace: the stored trace context (lib/job.lua, F_TRACE), '' for none
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/state.lua
--#include lib/service.lua
--#include lib/fair.lua
--#include lib/score.lua

local PROMOTE_LIMIT = 1000

local now = clock_now(ARGV[1])
local id = ARGV[2]
promote_due(now, PROMOTE_LIMIT)
events_flush(now)
local job = job_load(id)
if not job then
  return {}
end
local s = settings_load()
local function value(i)
  local v = job[i]
  if v == nil then
    return 0
  end
  return v
end
local function text(i)
  local v = job[i]
  if v == nil or v == 0 then
    return ''
  end
  return v
end
local max, ttr = value(F_MAX_ATTEMPTS), value(F_TTR)
if max == 0 then
  max = s.max_attempts
end
if ttr == 0 then
  ttr = s.ttr_ms
end
local due = value(F_DUE)
if due == 0 then
  due = job[F_CREATED]
end
local position = position_of(id)
local leased, done, window = 0, {}, {0, 0, 0}
if position >= 0 then
  leased = redis.call('ZCARD', K_LEASED)
  done = service_counts(now)
  window = service_rate_window(now, s.rate)
end
local deadline = 0
if job[F_STATE] == ST_LEASED then
  deadline = tonumber(redis.call('ZSCORE', K_LEASED, id) or 0)
end
local key, key_ahead, ks = '', 0, {rate = 0, period = 0}
FAIR.on = s.fair == 1
if fair_on() then
  key = fair_key_of(id)
  ks = fair_settings(key)
  if position > 0 then
    -- Its tag against its key's tagger: the tagger's next job is i, and job j's tag is
    -- base + floor(j * quantum / weight), so about (i - j) of the key's jobs are behind it.
    local score = tonumber(redis.call('ZSCORE', K_READY, id))
    local class = PRIORITY_MAX - job[F_PRIORITY]
    local raw = redis.call('HGET', fair_key_name('tags'), key)
    local t = raw and cmsgpack.unpack(raw)[class]
    local waiting = fair_count_of('waiting', key)
    if t and score then
      local j = math.ceil((score - class * ARRIVAL_SPAN - t[2]) * t[4] / FAIR_QUANTUM)
      key_ahead = math.max(0, math.min(position, waiting - (t[3] - j)))
    end
  end
end
return {state_name(id, job), text(F_PAYLOAD), job[F_PRIORITY], job[F_ATTEMPTS], max, ttr, job[F_CREATED], due,
  value(F_EXPIRES), value(F_STARTED), value(F_FINISHED), text(F_ERROR), text(F_RESULT), position, deadline, now,
  s.paused, s.rate, s.concurrency, s.expected_service_ms, leased, done, window, s.rate_period_ms, s.rate_burst,
  key, key_ahead, ks.rate, ks.period, text(F_TRACE)}
