-- lease: acknowledges finished jobs (optional), then leases up to `count` jobs from the front of
-- the ready line, within the queue's rate and concurrency limits. Before leasing it reclaims
-- expired leases and promotes due delayed jobs, so no background loop is needed for either.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, finished, dead, ttl, meta, wake, events, rate, outbox
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      count: most jobs to lease (0 = only acknowledge)
-- ARGV[3]      nonce: random text that makes this call's lease tokens unique
-- ARGV[4]      rand: a number in [0, 1) for backoff jitter of reclaimed jobs
-- ARGV[5]      number of acks a, then 3 values per ack: id, lease token, result (bytes, '' = none)
-- ARGV[6+3a]   consumer (optional): the caller's name, for the due watch (lib/due_watch.lua);
--              absent or '' = the caller takes no part in it
-- Returns      { ack_codes, status, wait_us, now_ms, max_attempts, job... }
--              ack_codes: a table of one code per ack (codes.lua)
--              status: 0 leased or nothing ready, 1 paused, 2 rate limit reached (or an adaptive
--              limit's Retry-After hold), 3 concurrency limit reached (the fixed limit, or the
--              adaptive one under it: lib/settings.lua)
--              wait_us: microseconds until a lease can succeed (next due job or limit window),
--              from when the script read the clock; -1 unknown. For a named consumer that does
--              not watch the next due job, until the watcher is overdue (lib/due_watch.lua)
--              now_ms: the script's clock (epoch ms)
--              max_attempts: the queue's, for the jobs whose body names none (0); then the values
--              of each leased job, in the reply itself, one job after another (not a table per job,
--              which Redis answered slower):
--   job = { id, body, attempt, lease_deadline_ms }
--              body: the job's stored body, a whole record (lib/job.lua) as stored, from which the
--              engine reads the payload, creation, priority, max attempts and due time (fewer values
--              to reply, and no copy of the payload made here); lease_deadline_ms: epoch ms. The
--              lease token is the call's nonce, '.', and the attempt (the engine makes it too).
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/retry.lua
--#include lib/expire.lua
--#include lib/ack.lua
--#include lib/due_watch.lua
--#include lib/fair.lua

local RECLAIM_LIMIT = 100
local PROMOTE_LIMIT = 1000
-- Redis 7.0 keeps a sorted set of up to 128 members (zset-max-listpack-entries) as a listpack, in
-- which every insert and every removal searches the members one by one (and an insert formats the
-- score as text). The leased set of a consumer that holds tens of jobs at a time stays such a
-- listpack (it never passes 128, or empties with every batch acked and is built again), and its
-- leases and acks then cost Redis several times what they cost in a skiplist: a drain in leases of
-- 125, each acking the one before, spent 30 % of Redis's work there. So a lease of more than
-- SKIPLIST_FROM jobs makes the leased set a skiplist when it is not one: a member longer than
-- zset-max-listpack-value (64 bytes) turns a listpack into a skiplist for good (and makes a new set
-- one at once). This placeholder is such a member, added before the leases and removed right after
-- them in the same call. It holds a space, which no job id does, and its score 0 would have the
-- next reclaim drop it were it ever left behind. A skiplist costs about 85 bytes more per leased
-- job, which only the jobs currently leased pay.
local SKIPLIST_PLACEHOLDER = 'lineup: a member whose length makes Redis build this sorted set as a skiplist'
local SKIPLIST_FROM = 16

local now, now_us = clock_now(ARGV[1])
local count = tonumber(ARGV[2])
local asked = count
local nonce = ARGV[3]
local rand = tonumber(ARGV[4])
local s = settings_load()
FAIR.on = s.fair == 1
local n_acks = tonumber(ARGV[5])
local consumer = ARGV[6 + 3 * n_acks]
if consumer == '' then
  consumer = nil
end

local codes = ack_all(6, n_acks, now, s)

-- Due jobs this call moved to the line. It does not wake another consumer for them when it moves
-- them, since it is about to lease them itself: it wakes one only for the jobs it leaves behind
-- (at its end), or when a pause or a limit refuses it any. A wake-up at the move cost each delayed
-- job a wake-up token, a consumer's pop of it and a lease that found nothing.
local promoted = 0

-- The reply: its first four values, then the leased jobs' values (out, when jobs were leased).
-- wait: in ms from now (the whole ms), answered in microseconds from the clock's reading.
local function reply(status, wait, out)
  if status ~= 0 and promoted > 0 then
    wake()
  end
  events_flush(now)
  out = out or {}
  if wait > 0 then
    wait = math.max(1, wait * 1000 - now_us)
  end
  out[1], out[2], out[3], out[4], out[5] = codes, status, wait, now, s.max_attempts
  return out
end

if count <= 0 then
  if consumer then
    due_watch_resign(consumer)
  end
  return reply(0, -1)
end
reclaim_expired(now, s, RECLAIM_LIMIT, rand)
promoted = promote_due_quietly(now, math.max(PROMOTE_LIMIT, count))
if s.paused == 1 then
  return reply(1, -1)
end
-- An adaptive limit's hold: the endpoint answered 429 or 503 with a Retry-After (lib/adaptive.lua,
-- adaptive_report.lua), so nothing is leased until it ends; answered as a rate limit's wait.
if s.adaptive_hold_until > now then
  return reply(2, s.adaptive_hold_until - now)
end

if s.concurrency > 0 then
  local free = s.concurrency - redis.call('ZCARD', K_LEASED)
  if free <= 0 then
    local first = redis.call('ZRANGE', K_LEASED, 0, 0, 'WITHSCORES')
    return reply(3, math.max(0, tonumber(first[2]) - now))
  end
  count = math.min(count, free)
end
-- Rate: at most s.rate leases in any sliding period (a log of the period's leases; rate_slot.lua
-- moves a job's entry to when its work starts, so the log also holds starts). With a burst,
-- also a GCRA: at most s.rate_burst at once, then one lease per period / rate, spaced evenly; its
-- theoretical arrival time is the meta field rate_tat (ms, fractional).
local rate_base, rate_interval
if s.rate > 0 then
  local period = s.rate_period_ms
  redis.call('ZREMRANGEBYSCORE', K_RATE, '-inf', now - period)
  local free = s.rate - redis.call('ZCARD', K_RATE)
  if free <= 0 then
    local first = redis.call('ZRANGE', K_RATE, 0, 0, 'WITHSCORES')
    -- The oldest lease leaves the window when it is a period old (the trim above is inclusive).
    return reply(2, math.max(1, tonumber(first[2]) + period - now))
  end
  count = math.min(count, free)
  if s.rate_burst > 0 then
    rate_interval = period / s.rate
    local tolerance = (s.rate_burst - 1) * rate_interval
    rate_base = math.max(tonumber(redis.call('HGET', K_META, 'rate_tat') or '0'), now)
    if rate_base > now + tolerance then
      return reply(2, math.max(1, math.ceil(rate_base - tolerance - now)))
    end
    count = math.min(count, math.floor((now + tolerance - rate_base) / rate_interval) + 1)
  end
end

-- The jobs are read with one HMGET and written with one HSET (per records hash, lib/job.lua) and
-- one ZADD, not one each per job. They are taken from the front of the line without their scores
-- (ZPOPMIN formats every score as text, about 4,000 instructions a job): the score of a job leased
-- as publish wrote it is derived from its id when it is released (lib/line.lua, line_derivable),
-- and only when some other job is among them are the scores asked for, before the jobs leave the
-- line.
-- A fair queue picks its jobs by key (lib/fair.lua); a release finds the score of a job whose key's
-- entry holds its tag there, so the lease leaves it out as for a job leased as publish wrote it,
-- and keeps only the others' (lines[k] nil: left out).
local fair = s.fair == 1
local ids, raws, lines, fair_keys, fair_wait, fair_limited, fair_groups
if fair then
  ids, lines, fair_keys, fair_wait, fair_limited, fair_groups = fair_pick(count, now)
  raws = records_get_spread(ids, true, fair_groups)
else
  ids = redis.call('ZRANGE', K_READY, 0, count - 1)
  raws = records_get(ids, true)
  for k = 1, #ids do
    local raw = raws[k]
    if raw and not line_derivable(ids[k], str_byte(raw, 1)) then
      lines = redis.call('ZMSCORE', K_READY, unpack(ids))
      break
    end
  end
  if #ids > 0 then
    redis.call('ZREMRANGEBYRANK', K_READY, 0, #ids - 1)
  end
end
local leased_keys = {}    -- a fair queue's keys of the leased jobs
local out = {0, 0, 0, 0, 0} -- the reply: five places for reply(), then the jobs' values
local n_out = 5
-- Texts made once per call and reused (lib/clock.lua): deadlines by time-to-run, tokens and
-- attempt numbers by attempt.
local deadline_texts = {}
local tokens = {}
local attempt_texts = {}
local now_text = int_text(now)
local records = {}        -- HSET field/value pairs: the leased records
local starts = {}         -- leased_head_pack's shared starts of heads (lib/job.lua)
local unlined = {}        -- leased_head_unlined's heads (lib/job.lua)
local line_headers = {}   -- length -> msgpack fixstr header of a line score that long
local deadlines = {}      -- ZADD score/member pairs for the leased set
local leases = {}         -- ZADD score/member pairs for the rate log
local leased = {}         -- the leased ids, for the call's event
local n_leased = 0
-- The loop runs once per leased job, so what a helper would do is written out in it where the
-- helper's call cost more than its work (present(), text_once(), the lease's new token), and
-- lengths are counted rather than asked for (# searches the table).
for k = 1, #ids do
  local raw = raws[k]
  if raw then
    local id = ids[k]
    -- A record as published, a whole one of at most F_EXPIRES values (no lease, finish or error
    -- yet) whose payload is at most 65,535 bytes, is read into locals instead of a job's table,
    -- after its payload, which is not unpacked at all (the reply gives the record, and the engine
    -- reads the payload from it); its leased form is made from the call's shared start of heads
    -- (what job_decode and leased_head_pack give, without the table of 18 values, their calls and a
    -- copy of the payload). Any other record takes the general way.
    local first, header, size1, size2 = str_byte(raw, 1, 4)
    local after_payload -- 0-based offset of the value after the payload (msgpack str or bin)
    if header >= 0xa0 and header <= 0xbf then
      after_payload = 2 + header - 0xa0
    elseif header == 0xd9 or header == 0xc4 then
      after_payload = 3 + size1
    elseif header == 0xda or header == 0xc5 then
      after_payload = 4 + size1 * 256 + size2
    end
    local line = false -- the job's score, or false when a release derives it
    if fair or not line_derivable(id, first) then
      line = lines[k]
    end
    local fast = first >= 0x92 and first <= 0x99 and (not line or #line <= 31) and after_payload
    local job, body, attempts, ttr, expires
    if fast then
      local _
      _, _, _, attempts, _, _, ttr, _, expires = mp_unpack_limit(raw, first - 0x91, after_payload)
      body = raw
    else
      job, body = job_decode(raw)
      attempts, ttr, expires = job[F_ATTEMPTS], job[F_TTR], job[F_EXPIRES]
    end
    if expires and expires ~= 0 and expires ~= '' and expires <= now then
      expire_one(id, job or job_decode(raw), now, s)
    else
      local attempt = (attempts or 0) + 1
      if not ttr or ttr == 0 or ttr == '' then
        ttr = s.ttr_ms
      end
      local token = tokens[attempt]
      if not token then
        token = nonce .. '.' .. text_once(attempt_texts, attempt, attempt)
        tokens[attempt] = token
      end
      local deadline_text = deadline_texts[ttr]
      if not deadline_text then
        deadline_text = int_text(now + ttr)
        deadline_texts[ttr] = deadline_text
      end
      local record
      if fast and not line then
        record = (unlined[token] or leased_head_unlined(unlined, token, attempt, now)) .. raw
      elseif fast then
        -- leased_head_pack's bytes; the start and the line's msgpack header (fixstr) are made once
        -- per call and looked up here, not asked of a function per job.
        local start = starts[token] or leased_start(starts, token, attempt, now)
        local line_header = line_headers[#line]
        if not line_header then
          line_header = str_char(0xa0 + #line)
          line_headers[#line] = line_header
        end
        record = start .. line_header .. line .. raw
      else
        -- A new lease: the ended lease's token and how it ended move to the previous fields.
        local ended_token = job[F_TOKEN]
        if ended_token ~= 0 and ended_token ~= '' then
          job[F_PREV_TOKEN] = ended_token
          job[F_PREV_ENDED] = job[F_ENDED]
        end
        job[F_TOKEN] = token
        job[F_ENDED] = 0
        job[F_STATE] = ST_LEASED
        job[F_ATTEMPTS] = attempt
        job[F_STARTED] = now
        -- The score as Redis wrote it: a release gives it back to ZADD as it is, so it is never
        -- parsed here (parsing a 16-digit score cost more than the rest of its line).
        job[F_LINE] = line or 0
        -- Only head fields changed: the stored body is kept as it is (lib/job.lua).
        record = leased_head_pack(job, body, starts)
      end
      n_leased = n_leased + 1
      leased[n_leased] = id
      if fair then
        leased_keys[n_leased] = fair_keys[k]
      end
      records[2 * n_leased - 1], records[2 * n_leased] = id, record
      deadlines[2 * n_leased - 1], deadlines[2 * n_leased] = deadline_text, id
      if s.rate > 0 then
        leases[2 * n_leased - 1] = now_text
        leases[2 * n_leased] = id .. ':' .. text_once(attempt_texts, attempt, attempt)
      end
      out[n_out + 1], out[n_out + 2], out[n_out + 3], out[n_out + 4] = id, body, attempt, now + ttr
      n_out = n_out + 4
    end
  end
end
note_all('leased', leased)
if #records > 0 then
  if fair then
    -- Every id leased, in order: records pairs up with ids, whose groups the pick made.
    records_put_spread(records, fair_groups and n_leased == #ids and fair_groups or nil)
  else
    records_put(records)
  end
  if n_leased > SKIPLIST_FROM and redis.call('OBJECT', 'ENCODING', K_LEASED) ~= 'skiplist' then
    redis.call('ZADD', K_LEASED, 0, SKIPLIST_PLACEHOLDER)
    redis.call('ZADD', K_LEASED, unpack(deadlines))
    redis.call('ZREM', K_LEASED, SKIPLIST_PLACEHOLDER)
  else
    redis.call('ZADD', K_LEASED, unpack(deadlines))
  end
end
if #leases > 0 then
  redis.call('ZADD', K_RATE, unpack(leases))
  if rate_base then
    redis.call('HSET', K_META, 'rate_tat', tostring(rate_base + (#leases / 2) * rate_interval))
  end
end

if fair and n_leased > 0 then
  fair_leased(leased_keys)
end
local wait = -1
if fair and fair_limited and #ids < count then
  -- Jobs are left, but of keys at their limits: a leased job's end wakes a consumer (lib/ack.lua),
  -- a rate limit's next slot is fair_wait away.
  wait = fair_wait
  local due_in = next_due_in(now)
  if due_in >= 0 and (wait < 0 or due_in < wait) then
    wait = due_in
  end
elseif redis.call('ZCARD', K_READY) > 0 then
  -- Jobs are left: pass the wake-up on to another waiting consumer.
  wake()
  wait = 0
else
  wait = next_due_in(now)
  if consumer and wait > 0 then
    wait = due_watch(consumer, now, wait, n_leased >= asked)
  end
end
return reply(0, wait, out)
