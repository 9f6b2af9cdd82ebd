-- jobs_list: a page of the jobs of one state of a queue, in the order of that state's sorted set,
-- after a keyset cursor (the score and id of the last entry seen), optionally filtered. Reads only.
-- Each state is one sorted set: ready (line score: priority, then arrival), delayed (due time),
-- leased (lease deadline), dead (time of death), finished (finish time). Entries are ordered by
-- (score, id), as Redis orders them, so a cursor names a place in the set that stays meaningful
-- while entries come and go: the page starts right after it, found in O(log n), never by offset.
-- A call examines at most ARGV[6] entries (filters that do not match cost their entries too) and
-- answers where it stopped, so no call scans a long set through.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, finished, dead
-- ARGV[1]      state: 'ready', 'delayed', 'leased', 'dead' or 'finished'
-- ARGV[2]      order: 'asc' (the set's order) or 'desc'
-- ARGV[3]      cursor score: a number as Redis wrote it ('' = from the first entry in this order)
-- ARGV[4]      cursor id: the id of the last entry seen (with ARGV[3])
-- ARGV[5]      limit: most jobs answered (1 to 100)
-- ARGV[6]      scan: most entries examined (1 to 1000)
-- ARGV[7]      id prefix a job's id must start with ('' = any)
-- ARGV[8]      text the job's last error must contain, compared as bytes ('' = any)
-- ARGV[9]      from, epoch ms ('' = none): the entry's score (due time, lease deadline, death or
--              finish time) must be at least this; for 'ready', its creation time
-- ARGV[10]     to, epoch ms ('' = none): the same, at most this
-- Returns      { scanned, more, last_score, last_id, job... }
--              scanned: entries examined; more: 1 when entries are left after the last examined
--              (in this order and time range), else 0; last_score, last_id: the last entry
--              examined, the cursor for the next page ('' when none was examined)
--   job = { id, score, state, payload, priority, attempts, created_ms, error, index }
--              score: the entry's score as Redis wrote it; state: the state name (JobState);
--              error: the last error text ('' = none); index: the entry's rank in its set from
--              the lowest score (the position in the ready line for 'ready')
--#include lib/keys.lua
--#include lib/job.lua

local SETS = {ready = K_READY, delayed = K_DELAYED, leased = K_LEASED, dead = K_DEAD, finished = K_FINISHED}
local FINISHED_NAMES = {[ST_DONE] = 'DONE', [ST_CANCELLED] = 'CANCELLED', [ST_EXPIRED] = 'EXPIRED'}
local FIXED_NAMES = {ready = 'READY', delayed = 'DELAYED', leased = 'LEASED', dead = 'DEAD'}

local list = ARGV[1]
if not SETS[list] then
  return redis.error_reply('LINEUP unknown job list ' .. tostring(list))
end
-- The list's sorted set is called as KEYS[at]: a script passes Redis keys only as the K_* locals
-- or KEYS[...] (ScriptKeysDeclaredTest), and this one picks its set by the list asked for.
local at
for i, key in ipairs(KEYS) do
  if key == SETS[list] then
    at = i
  end
end
local descending = ARGV[2] == 'desc'
local cursor_score, cursor_id = ARGV[3], ARGV[4]
local limit, scan = tonumber(ARGV[5]), tonumber(ARGV[6])
local prefix, error_text = ARGV[7], ARGV[8]
local from, to = ARGV[9], ARGV[10]
local by_created = list == 'ready'

-- Whether string a sorts before b as Redis orders members of equal score: byte by byte, a prefix
-- first. Lua's own < compares by the C library's collation, which need not be byte order.
local function bytes_before(a, b)
  local n = math.min(#a, #b)
  for i = 1, n do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then
      return x < y
    end
  end
  return #a < #b
end

-- The first rank whose entry comes after (score, id) (or at it, when not strict). When the
-- cursor's entry is still there, its rank says it at once; when it left, the entries of its score
-- are searched by halves, so a page starts where it would have been either way.
local function rank_after(score, id, strict)
  if redis.call('ZSCORE', KEYS[at], id) == score then
    local rank = redis.call('ZRANK', KEYS[at], id)
    if strict then
      return rank + 1
    end
    return rank
  end
  local low = redis.call('ZCOUNT', KEYS[at], '-inf', '(' .. score)
  local high = low + redis.call('ZCOUNT', KEYS[at], score, score)
  while low < high do
    local mid = math.floor((low + high) / 2)
    local member = redis.call('ZRANGE', KEYS[at], mid, mid)[1]
    if bytes_before(id, member) or (not strict and member == id) then
      high = mid
    else
      low = mid + 1
    end
  end
  return low
end

-- The window of ranks [first, last] in time range: for states scored by time, the range is a
-- range of scores, found in O(log n); for the ready line (scored by priority) creation times are
-- filtered entry by entry below.
local first, last = 0, redis.call('ZCARD', KEYS[at]) - 1
if not by_created then
  if from ~= '' then
    first = redis.call('ZCOUNT', KEYS[at], '-inf', '(' .. from)
  end
  if to ~= '' then
    last = redis.call('ZCOUNT', KEYS[at], '-inf', to) - 1
  end
end
if cursor_score ~= '' then
  if tonumber(cursor_score) == nil then
    return redis.error_reply('LINEUP the cursor score is not a number')
  end
  if descending then
    last = math.min(last, rank_after(cursor_score, cursor_id, false) - 1)
  else
    first = math.max(first, rank_after(cursor_score, cursor_id, true))
  end
end

local function matches(id, job)
  if prefix ~= '' and string.find(id, prefix, 1, true) ~= 1 then
    return false
  end
  if error_text ~= '' then
    local err = job[F_ERROR]
    if type(err) ~= 'string' or not string.find(err, error_text, 1, true) then
      return false
    end
  end
  if by_created then
    local created = job[F_CREATED]
    if (from ~= '' and created < tonumber(from)) or (to ~= '' and created > tonumber(to)) then
      return false
    end
  end
  return true
end

local function state_of(job)
  return FIXED_NAMES[list] or FINISHED_NAMES[job[F_STATE]] or 'DONE'
end

local out = {0, 0, '', ''}
local found, scanned = 0, 0
local filtered = prefix ~= '' or error_text ~= '' or (by_created and (from ~= '' or to ~= ''))
-- The next rank to examine, moving up (asc) or down (desc).
local next_rank = descending and last or first
local function left()
  if descending then
    return next_rank - first + 1
  end
  return last - next_rank + 1
end

while found < limit and scanned < scan and left() > 0 do
  -- Unfiltered, a batch is the page; filtered, it is larger, since entries may not match.
  local want = limit - found
  if filtered then
    want = math.max(want, 100)
  end
  local take = math.min(want, scan - scanned, left())
  local a, b = next_rank, next_rank + take - 1
  if descending then
    a, b = next_rank - take + 1, next_rank
  end
  local range = redis.call('ZRANGE', KEYS[at], a, b, 'WITHSCORES')
  local ids, scores, ranks = {}, {}, {}
  for i = 1, #range, 2 do
    ids[#ids + 1] = range[i]
    scores[#scores + 1] = range[i + 1]
    ranks[#ranks + 1] = a + (i - 1) / 2
  end
  if descending then
    local n = #ids
    for i = 1, math.floor(n / 2) do
      ids[i], ids[n - i + 1] = ids[n - i + 1], ids[i]
      scores[i], scores[n - i + 1] = scores[n - i + 1], scores[i]
      ranks[i], ranks[n - i + 1] = ranks[n - i + 1], ranks[i]
    end
  end
  if #ids == 0 then
    break
  end
  local raws = records_get(ids, false)
  for i, id in ipairs(ids) do
    scanned = scanned + 1
    out[3], out[4] = scores[i], id
    if descending then
      next_rank = ranks[i] - 1
    else
      next_rank = ranks[i] + 1
    end
    if raws[i] then
      local job = job_decode(raws[i])
      if matches(id, job) then
        local err = job[F_ERROR]
        if type(err) ~= 'string' then
          err = ''
        end
        out[#out + 1] = {id, scores[i], state_of(job), job[F_PAYLOAD], job[F_PRIORITY], job[F_ATTEMPTS],
          job[F_CREATED], err, ranks[i]}
        found = found + 1
      end
    end
    if found >= limit then
      break
    end
  end
end
out[1] = scanned
if left() > 0 then
  out[2] = 1
end
return out
