-- Making new jobs: their records, their places in the ready line or the delayed set, their TTL
-- entries and their 'published' event. publish.lua and schedule_fire.lua both make their jobs here,
-- so a job a schedule publishes is stored exactly as a published one. A call gathers its jobs with
-- make_job, then writes them with make_write (a few commands for all of them, not a few per job).
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/fair.lua
--#include lib/score.lua
local made_records = {}   -- HSET field/value pairs
local made_ready = {}     -- ZADD score/member pairs for the ready line
local made_delayed = {}   -- ZADD score/member pairs for the delayed set
local made_expiring = {}  -- ZADD score/member pairs for the TTL set
local made_ids = {}       -- ids of the jobs made, for their event
local made_headers = {}   -- payload length -> its msgpack header
local made_count, made_ready_count = 0, 0
local made_first_due = false  -- earliest due time among the call's delayed jobs
local made_keys = {}      -- fair queue: id/entry pairs of the jobs with a key (fair_entry)
local made_tags = {}      -- fair queue: tag -> its text
local made_waiting = {}   -- fair queue: key -> jobs made
local made_parked = {}    -- fair queue: key -> ZADD score/member pairs for a paused key's park

-- Ids for a fair queue's ready jobs. A fair lease takes the jobs of many keys in turn; ids given
-- by arrival would put each of them in its own record hash (lib/job.lua), and the lease, its acks
-- and the keys' lookups would read and write a hash per job. So a ready job of a fair queue whose id
-- is generated takes it from a block of FAIR_BLOCK_JOBS arrival numbers (exactly the ids of one
-- record hash) shared by the jobs whose tags fall in one window of its class, which leases take one
-- after another. A window is about a block of jobs wide at the keys waiting now: one turn
-- (FAIR_QUANTUM tag units) with FAIR_BLOCK_JOBS keys or more, FAIR_BLOCK_JOBS turns with one key.
-- A window's open block is kept in the hash fair_key_name('blocks'), field '<class>:<window mod
-- FAIR_BLOCK_WINDOWS>' (msgpack {window, width, block, used}), so a class keeps at most
-- FAIR_BLOCK_WINDOWS of them; a window that finds its field held by another opens a new block. The
-- numbers of a block are reserved from the queue's arrival counter like any id (aligned to a
-- hash's first id, which costs up to FAIR_BLOCK_JOBS - 1 unused numbers a block), so they are
-- never given twice. Delayed jobs and jobs of paused keys keep ids by arrival: their turn is not
-- known yet.
local FAIR_BLOCK_JOBS = 62
local FAIR_BLOCK_WINDOWS = 64
local made_blocks = {}        -- field -> {window, width, block, used}: the blocks this call used
local made_blocks_read = {}   -- field -> true once read
local made_window_width = false

-- The width of a window in tag units, for the keys waiting when the call began (as the waiting
-- counts hold them: keys that leases emptied since the last fold still count, lib/fair.lua; an
-- estimate is all a window needs).
local function fair_window_width()
  if not made_window_width then
    local keys = redis.call('HLEN', fair_key_name('waiting_counts'))
    made_window_width = FAIR_QUANTUM * math.max(1, math.floor(FAIR_BLOCK_JOBS / math.max(1, keys)))
  end
  return made_window_width
end

-- The id of a new ready job of a fair queue at line score `score` in class `class`.
local function fair_block_id(class, score)
  local width = fair_window_width()
  local window = math.floor((score - class * ARRIVAL_SPAN) / width)
  local field = class .. ':' .. (window % FAIR_BLOCK_WINDOWS)
  local b = made_blocks[field]
  if not made_blocks_read[field] then
    made_blocks_read[field] = true
    local raw = redis.call('HGET', fair_key_name('blocks'), field)
    if raw then
      b = cmsgpack.unpack(raw)
    end
  end
  if not b or b[1] ~= window or b[2] ~= width or b[4] >= FAIR_BLOCK_JOBS then
    local last = redis.call('HINCRBY', K_META, 'seq', 2 * FAIR_BLOCK_JOBS - 1)
    if last >= ARRIVAL_SPAN then
      error({err = 'LINEUP arrival sequence of this queue is exhausted'})
    end
    b = {window, width, math.ceil((last - 2 * FAIR_BLOCK_JOBS + 2) / FAIR_BLOCK_JOBS), 0}
  end
  made_blocks[field] = b
  local id = arrival_id(b[3] * FAIR_BLOCK_JOBS + b[4])
  b[4] = b[4] + 1
  return id
end

-- One option set: what jobs made with the same options share, worked out once (the due time and
-- line score, and the stored record but for the payload: the msgpack array header, then every field
-- after the payload, trailing defaults dropped). Numbers: priority (-255..255), delay (ms, -1
-- none), run_at (epoch ms, -1 none), max attempts and time-to-run (0 = the queue's), ttl (ms from
-- now, 0 = none); window: the unique window as text ('0' = no unique key); key: the fairness key
-- ('' = none), which only a fair queue reads (lib/fair.lua); trace: the stored trace context
-- (lib/job.lua, F_TRACE; nil or '' = none).
local function make_options(now, priority, delay, run_at, max_attempts, ttr, ttl, window, key, trace)
  local due = now
  if run_at >= 0 then
    due = run_at
  elseif delay > 0 then
    due = now + delay
  end
  local fields = {now, priority, 0, ST_WAITING, max_attempts, ttr, 0, 0}
  if due > now then
    fields[F_DUE - 1] = due
  end
  local expires = 0
  if ttl > 0 then
    expires = now + ttl
    fields[F_EXPIRES - 1] = expires
  end
  if trace and trace ~= '' then
    -- The fields between the body's and the trace are the head's, absent (0) in a new job.
    for f = F_EXPIRES, F_TRACE - 2 do
      fields[f] = 0
    end
    fields[F_TRACE - 1] = trace
  end
  local count = #fields
  while count > F_CREATED - 1 and not present(fields[count]) do
    count = count - 1
  end
  -- msgpack's fixarray up to 15 values; a record with a trace context needs its array 16.
  local head = count + 1 < 16 and string.char(0x90 + count + 1) or string.char(0xdc, 0, count + 1)
  return {
    priority = priority,
    due = due,
    due_text = int_text(due),
    ready = due <= now,
    state = due <= now and 'READY' or 'DELAYED',
    expires = expires,
    expires_text = int_text(expires),
    window = window,
    unique = window ~= '0',
    score = (PRIORITY_MAX - priority) * ARRIVAL_SPAN,
    head = head,
    tail = cmsgpack.pack(unpack(fields, 1, count)),
    scores = {},            -- score_text's cache
    fair = fair_on(),
    now = now,
    key = key or '',
  }
end

-- Makes a new job: its record, its place in the line (its score made of its arrival seq) or in the
-- delayed set as its option set says, its TTL entry, and its id in the call's event. Written by
-- make_write. generated: id was made from seq, and a fair queue's ready job may take another
-- (fair_block_id). Returns the job's id.
local function make_job(id, payload, set, seq, generated)
  local fair_line = false -- a fair queue's ready job: its score, text
  local fair_tag = nil     -- and its tag, text (fair_entry)
  if set.ready and set.fair and not fair_settings(set.key).paused then
    local score, tag = fair_score(set.key, set.priority)
    fair_line = int_text(score)
    fair_tag = text_once(made_tags, tag, tag)
    if generated then
      id = fair_block_id(PRIORITY_MAX - set.priority, score)
    end
  end
  local length = #payload
  local header = made_headers[length]
  if not header then
    header = str_header(length)
    made_headers[length] = header
  end
  local at = made_count * 2
  made_records[at + 1], made_records[at + 2] = id, set.head .. header .. payload .. set.tail
  if set.fair then
    local key = set.key
    if key ~= '' then
      made_keys[#made_keys + 1] = id
      made_keys[#made_keys + 1] = fair_entry(key, fair_tag)
    end
    made_waiting[key] = (made_waiting[key] or 0) + 1
  end
  if set.ready and set.fair then
    local key = set.key
    if fair_settings(key).paused then
      local park = made_parked[key] or {}
      made_parked[key] = park
      park[#park + 1] = fair_park_score(set.priority, set.now)
      park[#park + 1] = id
    else
      made_ready[made_ready_count + 1] = fair_line
      made_ready[made_ready_count + 2] = id
      made_ready_count = made_ready_count + 2
    end
  elseif set.ready then
    made_ready[made_ready_count + 1], made_ready[made_ready_count + 2] = score_text(set.scores, set.score + seq), id
    made_ready_count = made_ready_count + 2
  else
    made_delayed[#made_delayed + 1] = set.due_text
    made_delayed[#made_delayed + 1] = id
    if not made_first_due or set.due < made_first_due then
      made_first_due = set.due
    end
  end
  if set.expires > 0 then
    made_expiring[#made_expiring + 1] = set.expires_text
    made_expiring[#made_expiring + 1] = id
  end
  made_count = made_count + 1
  made_ids[made_count] = id
  return id
end

-- Writes the jobs make_job gathered and notes their event (written by events_flush); wakes a
-- consumer when one of them is ready or became the earliest delayed job. ranked(): called after the
-- ready jobs are in the line and before the wake-up, for a caller that reads their ranks. Returns
-- how many jobs were made.
local function make_write(ranked)
  note_all('published', made_ids)
  if made_count > 0 then
    records_put(made_records)
  end
  if #made_keys > 0 then
    fair_keys_put(made_keys)
  end
  if next(made_blocks) then
    local values = {}
    for field, b in pairs(made_blocks) do
      values[#values + 1] = field
      values[#values + 1] = cmsgpack.pack(b)
    end
    redis.call('HSET', fair_key_name('blocks'), unpack(values))
  end
  if next(made_waiting) then
    fair_flush()
    fair_count('waiting', made_waiting)
    for key, park in pairs(made_parked) do
      redis.call('ZADD', fair_key_name('park:' .. key), unpack(park))
    end
  end
  if #made_expiring > 0 then
    redis.call('ZADD', K_TTL, unpack(made_expiring))
  end
  if made_ready_count > 0 then
    redis.call('ZADD', K_READY, unpack(made_ready))
    if ranked then
      ranked()
    end
    wake()
  end
  if made_first_due then
    redis.call('ZADD', K_DELAYED, unpack(made_delayed))
    -- A job of this call became the earliest delayed one: waiting consumers must wait less.
    local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
    if tonumber(first[2]) >= made_first_due then
      wake()
    end
  end
  return made_count
end
