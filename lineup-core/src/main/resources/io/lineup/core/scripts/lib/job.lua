-- A job is one field of the queue's jobs hash: a msgpack array, positions below (or the split form,
-- job_decode).
-- Absent values are 0 and trailing ones are not stored, so a new job waiting in line costs
-- only its payload and creation time (see docs/engine.md, data layout).
--#include lib/keys.lua
--#include lib/codes.lua
local ST_WAITING, ST_LEASED, ST_DONE, ST_DEAD, ST_CANCELLED, ST_EXPIRED = 0, 2, 3, 4, 5, 6
local F_PAYLOAD, F_CREATED, F_PRIORITY, F_ATTEMPTS, F_STATE, F_MAX_ATTEMPTS, F_TTR = 1, 2, 3, 4, 5, 6, 7
local F_DUE, F_EXPIRES, F_STARTED, F_FINISHED, F_TOKEN, F_ERROR, F_RESULT = 8, 9, 10, 11, 12, 13, 14
local F_LINE = 15 -- while leased: the job's score in the ready line (text, or a number in records
                 -- of earlier versions), so a release puts it back there
-- How leases ended, so a settle with an old token can be told what happened to it: F_TOKEN keeps
-- the last lease's token after it ended, F_ENDED how it ended (END_*, 0 while it holds or when it
-- was acked); a new lease moves both to F_PREV_TOKEN and F_PREV_ENDED. Tokens older than that are
-- answered as wrong tokens.
local F_ENDED, F_PREV_TOKEN, F_PREV_ENDED = 16, 17, 18
local END_NACKED, END_EXPIRED, END_RELEASED = 1, 2, 3
-- The W3C trace context of the span that published the job: its traceparent, then a space and its
-- tracestate when there is one (text). A body field, written by publish only, and last, so a job
-- published without one stores nothing for it.
local F_TRACE = 19
local HEAD_FIELDS = 18 -- the last field a split record's head holds (F_TRACE is in the body)
local JOB_FIELDS = 19

-- Where a record lives. A generated id ('~' and the base-62 arrival number) is kept in a hash of
-- 62 consecutive arrivals, named by the id without its last digit and a '.': K_JOBS .. ':~1a.'
-- holds '~1a0' to '~1az', K_JOBS .. ':~.' the first 61. A caller-given id (never starting with
-- '~') is kept in K_JOBS itself. Why so small: Redis keeps a hash of at most
-- hash-max-listpack-entries fields (128 by default) whose values are all at most
-- hash-max-listpack-value bytes as one listpack, about 3 bytes per field and value instead of
-- about 60, so a waiting job costs little more than its record's bytes (docs/engine.md, data
-- layout). Why consecutive arrivals: jobs are consumed in arrival order, so a lease and its acks
-- look up records in one or two small hashes whose tables stay in the CPU's caches.
-- Builds of Lineup up to November 2026 kept generated ids in hashes of 3,844 arrivals named by the id without its
-- last two digits (no '.'); a record not found in its hash is looked for there (legacy_key), and
-- moves to its hash the next time it is written, so an upgrade needs no migration.
-- A bucket key is K_JOBS and a suffix, so it keeps the queue's hash tag and lives in the queue's
-- Redis Cluster slot; bucket_key is the only place that derives a key (KeySpace.recordKey is its
-- Java twin).
local str_byte, str_sub, str_find = string.byte, string.sub, string.find
local RECORD_BUCKETS = {}   -- bucket suffix -> key, built once per call
local LEGACY_BUCKETS = {}   -- the same for the hashes of earlier versions
-- Ids whose records were read from an earlier version's hash this call (a table made at the first,
-- so that calls without any make none), and how many.
local LEGACY = false
local legacy_reads = 0

local function bucket_key(cache, suffix, mark)
  local key = cache[suffix]
  if not key then
    key = K_JOBS .. ':' .. suffix .. mark
    cache[suffix] = key
  end
  return key
end

-- How many leading bytes of a generated id name its bucket: all but its last digit.
local function suffix_length(id)
  local len = #id
  if len > 2 then
    return len - 1
  end
  return 1
end

-- The suffix of an id's bucket key, or nil for a caller-given id (not starting with '~'), whose
-- record is in K_JOBS itself.
local function bucket_suffix(id)
  if str_byte(id, 1) ~= 126 then
    return nil
  end
  return str_sub(id, 1, suffix_length(id))
end

-- Whether id is a generated one (starts with '~'), kept in a bucket.
local function generated(id)
  return str_byte(id, 1) == 126
end

local function record_key(id)
  local suffix = bucket_suffix(id)
  if not suffix then
    return K_JOBS
  end
  return bucket_key(RECORD_BUCKETS, suffix, '.')
end

-- Where an earlier version kept a generated id's record: all but its last two digits, or just the
-- '~' for the first 3,843 ids. Nil for a caller-given id, which has always been in K_JOBS.
local function legacy_key(id)
  if str_byte(id, 1) ~= 126 then
    return nil
  end
  local len = #id
  return bucket_key(LEGACY_BUCKETS, str_sub(id, 1, len > 3 and len - 2 or 1), '')
end

-- Splits values (`per` of them per id, the id first) into runs of consecutive ids whose records
-- share a hash: { first, last } positions in values. Jobs of one call mostly follow each other in
-- arrival order, so one HMGET/HSET/HDEL per run is usually one or two per call.
-- Whether an id shares the run's hash is compared in place (cutting each id's suffix out made a
-- new Lua string per id): a generated id of the bucket of suffix S (bucket_suffix; S starts with
-- '~') is one byte longer than S and starts with it; a caller-given one does not start with '~'.
local function record_runs(values, per)
  local runs = {}
  local n = #values
  local i = 1
  while i <= n do
    local suffix = bucket_suffix(values[i])
    local j = i + per
    if suffix then
      local id_length = #suffix + 1
      while j <= n do
        local id = values[j]
        if #id ~= id_length or str_find(id, suffix, 1, true) ~= 1 then
          break
        end
        j = j + per
      end
    else
      while j <= n and str_byte(values[j], 1) ~= 126 do
        j = j + per
      end
    end
    runs[#runs + 1] = {i, j - 1}
    i = j
  end
  return runs
end

-- Groups values (`per` of them per id, the id first) by the hash their records share, however they
-- are spread: groups in the order their first id comes, each the runs of neighbours (record_runs)
-- that make it up, as { first, last } positions in values, one after another: group[1], group[2]
-- the first run, group[3], group[4] the next. For the jobs of a fair queue's
-- lease, which come from many keys and so from many buckets in turn (lib/fair.lua): one command per
-- bucket instead of one per run of neighbours. Ids come in runs (a fair queue's ready jobs take
-- their ids from blocks by turn, lib/make.lua), so each id costs a comparison, not a lookup of its
-- bucket, and a group of one run passes its ids to Redis with no table made (group_values).
local function record_groups(values, per)
  local groups, by_key = {}, {}
  for _, run in ipairs(record_runs(values, per)) do
    local key = record_key(values[run[1]])
    local group = by_key[key]
    if not group then
      group = {}
      by_key[key] = group
      groups[#groups + 1] = group
    end
    group[#group + 1] = run[1]
    group[#group + 1] = run[2]
  end
  return groups
end

-- The values at a group's positions (record_groups), in order, for a command's arguments: the ids
-- of its runs, or with per = 2 their id/value pairs.
local function group_values(values, group)
  if #group == 2 then
    return unpack(values, group[1], group[2])
  end
  local out, n = {}, 0
  for r = 1, #group, 2 do
    for i = group[r], group[r + 1] do
      n = n + 1
      out[n] = values[i]
    end
  end
  return unpack(out, 1, n)
end

-- Looks for the records of ids at positions `missing` in the hashes of earlier versions, filling
-- raws and noting in LEGACY which were found there. One HMGET per run of ids sharing such a hash.
local function legacy_get(ids, raws, missing)
  local i, n = 1, #missing
  while i <= n do
    local key = legacy_key(ids[missing[i]])
    local batch = {ids[missing[i]]}
    local j = i
    while j < n and legacy_key(ids[missing[j + 1]]) == key do
      j = j + 1
      batch[#batch + 1] = ids[missing[j]]
    end
    local got = redis.call('HMGET', legacy_key(batch[1]), unpack(batch))
    for k = 1, #got do
      if got[k] then
        raws[missing[i + k - 1]] = got[k]
        LEGACY = LEGACY or {}
        LEGACY[batch[k]] = true
        legacy_reads = legacy_reads + 1
      end
    end
    i = j + 1
  end
end

-- Turns the hash of id's record into a hash table if Redis keeps it as a listpack. A listpack is
-- searched from its start for every field read or written: worth it for the records of waiting
-- jobs, which are written once (the publish) and read once (the lease), but not for what a lease
-- starts (the lease's rewrite, the ack's, the trimming of finished records). Redis turns a hash
-- into a table for good when a value longer than hash-max-listpack-value is written to it, so a
-- field with such a value is added and removed again. The value is made once per call
-- (listpack_breaker): string.rep appends its text once per repetition, about 20,000 instructions
-- for these 1,024 bytes, and a lease turns a hash per few dozen jobs.
-- (Locals of its own in a block: a script's main function has room for 200.)
local listpack_breaker
do
  local breaker_bytes = 1024
  local breaker = false
  listpack_breaker = function()
    if not breaker then
      breaker = string.rep('-', breaker_bytes)
    end
    return breaker
  end
end

local function record_hash_make_table(id)
  local encoding = redis.call('OBJECT', 'ENCODING', record_key(id))
  if encoding == 'listpack' or encoding == 'ziplist' then  -- ziplist: Redis before 7.0
    redis.call('HSET', record_key(id), ' ', listpack_breaker())
    redis.call('HDEL', record_key(id), ' ')
  end
end

-- The stored records of ids, in order (false where there is none). With `leasing` (a lease, or
-- a promotion of due jobs to the line, which leases follow), the hashes they are read from become
-- hash tables first (record_hash_make_table), since the lease rewrites the records.
local function records_get(ids, leasing)
  local raws = {}
  local missing
  for _, run in ipairs(record_runs(ids, 1)) do
    local first = run[1]
    local bucketed = generated(ids[first])
    if leasing and bucketed then
      record_hash_make_table(ids[first])
    end
    local got = redis.call('HMGET', record_key(ids[first]), unpack(ids, first, run[2]))
    for k = 1, #got do
      local raw = got[k]
      raws[first + k - 1] = raw
      if not raw and bucketed then
        missing = missing or {}
        missing[#missing + 1] = first + k - 1
      end
    end
  end
  if missing then
    legacy_get(ids, raws, missing)
  end
  return raws
end

-- records_get for ids spread over many buckets (record_groups): one HMGET per bucket. groups:
-- record_groups(ids, 1) when the caller has them.
local function records_get_spread(ids, leasing, groups)
  local raws = {}
  local missing
  for _, group in ipairs(groups or record_groups(ids, 1)) do
    local first = ids[group[1]]
    local bucketed = generated(first)
    if leasing and bucketed then
      record_hash_make_table(first)
    end
    local got = redis.call('HMGET', record_key(first), group_values(ids, group))
    local k = 0
    for r = 1, #group, 2 do
      for i = group[r], group[r + 1] do
        k = k + 1
        local raw = got[k]
        raws[i] = raw
        if not raw and bucketed then
          missing = missing or {}
          missing[#missing + 1] = i
        end
      end
    end
  end
  if missing then
    table.sort(missing)
    legacy_get(ids, raws, missing)
  end
  return raws
end

-- Removes from an earlier version's hash the record of id, read from there this call and now
-- written to its own hash or deleted.
local function legacy_forget(id)
  if legacy_reads > 0 and LEGACY[id] then
    redis.call('HDEL', legacy_key(id), id)
    LEGACY[id] = nil
    legacy_reads = legacy_reads - 1
  end
end

-- Stores records given as pairs: id, stored form.
local function records_put(pairs)
  for _, run in ipairs(record_runs(pairs, 2)) do
    redis.call('HSET', record_key(pairs[run[1]]), unpack(pairs, run[1], run[2]))
  end
  if legacy_reads > 0 then
    for i = 1, #pairs, 2 do
      legacy_forget(pairs[i])
    end
  end
end

-- records_put for pairs spread over many buckets (record_groups): one HSET per bucket. id_groups:
-- record_groups(ids, 1) of the pairs' ids, in order, when the caller has them: each run of
-- positions first..last of the ids is the run 2 * first - 1..2 * last of the pairs, so the pairs
-- are not grouped again (a comparison per id).
local function records_put_spread(pairs, id_groups)
  if id_groups then
    for _, group in ipairs(id_groups) do
      local paired = {}
      for r = 1, #group, 2 do
        paired[r], paired[r + 1] = 2 * group[r] - 1, 2 * group[r + 1]
      end
      redis.call('HSET', record_key(pairs[paired[1]]), group_values(pairs, paired))
    end
  else
    for _, group in ipairs(record_groups(pairs, 2)) do
      redis.call('HSET', record_key(pairs[group[1]]), group_values(pairs, group))
    end
  end
  if legacy_reads > 0 then
    for i = 1, #pairs, 2 do
      legacy_forget(pairs[i])
    end
  end
end

local function records_delete(ids)
  for _, run in ipairs(record_runs(ids, 1)) do
    local first, last = run[1], run[2]
    local gone = redis.call('HDEL', record_key(ids[first]), unpack(ids, first, last))
    if gone < last - first + 1 and generated(ids[first]) then
      -- Some were not in their hash: records of an earlier version, or none at all.
      for k = first, last do
        redis.call('HDEL', legacy_key(ids[k]), ids[k])
      end
    end
  end
end

local function present(v)
  return v ~= nil and v ~= 0 and v ~= ''
end

-- A record is stored in one of two forms. Whole: one msgpack array of the fields above (what
-- publish writes, and job_store). Split: the byte 0xc1 (a byte msgpack never uses, so no whole
-- record starts with it), then the head: the job's values at the same positions, whose body fields
-- (listed below) are 0 (head_decode says how it is stored), then a whole record, the body, whose
-- head fields the head overrides. Leases and acks change only head fields, so they write the split
-- form (job_pack_head): the head packed in front of the body's stored bytes, instead of packing the
-- payload and every other body field once more; an ack does not unpack the body at all
-- (job_decode_head).
local SPLIT_MARK = 193 -- 0xc1
local SPLIT_TEXT = string.char(SPLIT_MARK)
-- The body fields: F_PAYLOAD, F_CREATED, F_PRIORITY, F_MAX_ATTEMPTS, F_TTR, F_DUE,
-- F_EXPIRES, positions 1 to 3 and 6 to 9, and F_TRACE, after the head's last field; job_decode sets
-- them by name.
local mp_pack, mp_unpack_limit = cmsgpack.pack, cmsgpack.unpack_limit
local str_char = string.char

-- The msgpack header of a string of len bytes, the one cmsgpack.pack writes (fixstr, str 8, 16 or
-- 32), so that publish frames a payload by joining its header, its bytes and the record's other
-- fields in one string: packing it first made one more copy of every payload and cost Redis about
-- a twentieth of a published job's instructions (history/engine.md, "Publish in the plain form").
local function str_header(len)
  if len < 32 then
    return str_char(0xa0 + len)
  elseif len < 0x100 then
    return str_char(0xd9, len)
  elseif len < 0x10000 then
    return str_char(0xda, (len - len % 0x100) / 0x100, len % 0x100)
  end
  local floor = math.floor
  return str_char(0xdb, floor(len / 0x1000000), floor(len / 0x10000) % 0x100,
    floor(len / 0x100) % 0x100, len % 0x100)
end

-- A job's table of every field, absent values 0, from the loose values cmsgpack.unpack_limit
-- returns (after the offset that follows them, which comes back second). The table is made at its
-- full size at once: unpacking a msgpack array instead makes a table of its own and grows it value
-- by value (rehashing it five times for 15 values).
local function fields_of(next_at, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18,
    v19)
  return {v1 or 0, v2 or 0, v3 or 0, v4 or 0, v5 or 0, v6 or 0, v7 or 0, v8 or 0, v9 or 0, v10 or 0, v11 or 0,
    v12 or 0, v13 or 0, v14 or 0, v15 or 0, v16 or 0, v17 or 0, v18 or 0, v19 or 0}, next_at
end

-- The values of the msgpack array whose header starts at the 0-based offset `at` of raw, as a
-- job's fields (fields_of), and the offset after the array (-1 at the end of raw).
local function array_fields(raw, at)
  local first = str_byte(raw, at + 1)
  local n
  if first >= 0x90 and first <= 0x9f then
    n, at = first - 0x90, at + 1
  elseif first == 0xdc then
    local high, low = str_byte(raw, at + 2, at + 3)
    n, at = high * 256 + low, at + 3
  else
    error({err = 'LINEUP a job record is not a msgpack array'})
  end
  return fields_of(mp_unpack_limit(raw, n, at))
end

-- The head of a split record, every absent value 0, and the 0-based offset of the body after it.
-- The head is stored as the number of its values h (one byte, below 0x80) and then h msgpack values
-- one after another, which cmsgpack.unpack_limit hands back as plain values. Records that earlier
-- versions stored have an array there instead, whose first byte is 0x90 or above, and still read.
local function head_decode(raw)
  local h = str_byte(raw, 2)
  if h >= 0x80 then
    return array_fields(raw, 1)
  end
  return fields_of(mp_unpack_limit(raw, h, 2))
end

-- A job from its stored form, every absent value 0, and its stored body (for job_pack_head).
-- The whole record (or the body, in a split one) is a msgpack array, unpacked by array_fields.
local function job_decode(raw)
  local first = str_byte(raw, 1)
  if first ~= SPLIT_MARK then
    if first >= 0x90 and first <= 0x9f then
      -- array_fields for what publish writes, a fixarray, without its call.
      return (fields_of(mp_unpack_limit(raw, first - 0x90, 1))), raw
    end
    return (array_fields(raw, 0)), raw
  end
  local job, body_at = head_decode(raw)
  local body = array_fields(raw, body_at)
  -- The body fields over the zeros the head has at their positions.
  job[F_PAYLOAD], job[F_CREATED], job[F_PRIORITY] = body[F_PAYLOAD], body[F_CREATED], body[F_PRIORITY]
  job[F_MAX_ATTEMPTS], job[F_TTR] = body[F_MAX_ATTEMPTS], body[F_TTR]
  job[F_DUE], job[F_EXPIRES], job[F_TRACE] = body[F_DUE], body[F_EXPIRES], body[F_TRACE]
  return job, str_sub(raw, body_at + 1)
end

-- Only the head fields of a stored job (absent values 0; the body fields read 0 whatever the body
-- holds, so callers must not read them), and its stored body. Cheaper than job_decode for a split
-- record: the body, with the payload, is not unpacked.
local function job_decode_head(raw)
  local mark, h = str_byte(raw, 1, 2)
  if mark ~= SPLIT_MARK then
    return job_decode(raw)
  end
  -- head_decode without its call: an ack decodes a head per job.
  local job, body_at
  if h >= 0x80 then
    job, body_at = array_fields(raw, 1)
  else
    job, body_at = fields_of(mp_unpack_limit(raw, h, 2))
  end
  return job, str_sub(raw, body_at + 1)
end
local function job_load(id)
  local raw = redis.call('HGET', record_key(id), id)
  if not raw then
    if not generated(id) then
      return nil
    end
    raw = redis.call('HGET', legacy_key(id), id)
    if not raw then
      return nil
    end
    LEGACY = LEGACY or {}
    LEGACY[id] = true
    legacy_reads = legacy_reads + 1
  end
  return (job_decode(raw))
end

-- Whether a record of id is kept, in its hash or an earlier version's.
local function record_exists(id)
  if redis.call('HEXISTS', record_key(id), id) == 1 then
    return true
  end
  return generated(id) and redis.call('HEXISTS', legacy_key(id), id) == 1
end

-- Deletes the record of id, wherever it is kept.
local function record_delete(id)
  if redis.call('HDEL', record_key(id), id) == 0 and generated(id) then
    redis.call('HDEL', legacy_key(id), id)
  end
  if legacy_reads > 0 and LEGACY[id] then
    LEGACY[id] = nil
    legacy_reads = legacy_reads - 1
  end
end

-- The stored form of a job (as job_decode returns it: no nil below JOB_FIELDS), trailing absent
-- values dropped. Packed as the array header and then its values, which is the same bytes as
-- packing a table without building one. Up to 15 values (every record that never ended a lease
-- other than by ack) the header is one byte; beyond, it is msgpack's array 16 (0xdc and two bytes).
local function job_pack(job)
  local n = JOB_FIELDS
  while n > F_CREATED do
    local v = job[n]
    if v ~= 0 and v ~= '' then
      break
    end
    n = n - 1
  end
  if n < 16 then
    return string.char(0x90 + n) .. cmsgpack.pack(unpack(job, 1, n))
  end
  return string.char(0xdc, 0, n) .. cmsgpack.pack(unpack(job, 1, n))
end

-- The split stored form of a job whose body fields are as in its stored body (as job_decode or
-- job_decode_head returned them): its head fields packed in front of that body, trailing absent
-- values dropped. No table is built, and the head's constant parts are not packed: the body
-- positions are 0, which msgpack writes as the byte 0, and attempts and state below 128 are
-- msgpack's one-byte numbers, so only the fields from F_STARTED on go through cmsgpack.pack (which
-- makes a Lua string of every value it is given before joining them).
local ZEROS_BEFORE_ATTEMPTS = string.rep('\0', F_ATTEMPTS - 1)
local ZEROS_AFTER_STATE = string.rep('\0', F_STARTED - F_STATE - 1)

local function head_counters(job)
  local attempts = job[F_ATTEMPTS]
  if attempts < 128 then
    return str_char(attempts, job[F_STATE])
  end
  return mp_pack(attempts, job[F_STATE])
end

-- A split record's start up to its head's value at position `last` (F_STARTED or after), the head
-- counting `count` values.
local function head_start(job, count, last)
  return SPLIT_TEXT .. str_char(count) .. ZEROS_BEFORE_ATTEMPTS .. head_counters(job) .. ZEROS_AFTER_STATE
    .. mp_pack(unpack(job, F_STARTED, last))
end

local function job_pack_head(job, body)
  local n = HEAD_FIELDS
  while n > F_EXPIRES do
    local v = job[n]
    if v ~= 0 and v ~= '' then
      break
    end
    n = n - 1
  end
  if n == F_EXPIRES then
    -- Positions 6 to 9 are body fields: the head ends with the state.
    return SPLIT_TEXT .. str_char(F_STATE) .. ZEROS_BEFORE_ATTEMPTS .. head_counters(job) .. body
  end
  return head_start(job, n, n) .. body
end

-- The split stored forms that leases and acks write most, packed from a start that the jobs of one
-- call share: job_pack_head gives the same bytes, but each of its cmsgpack.pack calls cost about as
-- much as the rest of the job's lease or ack (it makes a Lua string of every value first).
-- `starts` is the call's table of starts, empty at first.
--
-- The shared start of a leased head (leased_head_pack, below): the job's values up to F_RESULT
-- (attempt and state, the lease's start at now, the token between zeros), made once per token. A
-- lease of a record as published uses it directly (lease.lua).
local function leased_start(starts, token, attempt, now)
  local start = starts[token]
  if not start then
    start = head_start({0, 0, 0, attempt, ST_LEASED, 0, 0, 0, 0, now, 0, token, 0, 0}, F_LINE, F_RESULT)
    starts[token] = start
  end
  return start
end

-- The whole head of a job leased as publish wrote it whose line score the lease leaves out (lib/line.lua,
-- line_derivable): the values of leased_start's up to the token, made once per token.
local function leased_head_unlined(heads, token, attempt, now)
  local head = heads[token]
  if not head then
    head = head_start({0, 0, 0, attempt, ST_LEASED, 0, 0, 0, 0, now, 0, token}, F_TOKEN, F_TOKEN)
    heads[token] = head
  end
  return head
end

-- The shared start of a done head (done_head_pack, below), which is all of it: attempt and state,
-- the lease's start, the finish and the token, made once per token: the jobs an ack call finds
-- under one token were leased by one lease call (same attempt and start) and finish at the ack's
-- now. An ack of a leased record without result or error uses it directly (lib/ack.lua).
local function done_start(starts, token, attempt, started, finished)
  local start = starts[token]
  if not start then
    start = head_start({0, 0, 0, attempt, ST_DONE, 0, 0, 0, 0, started, finished, token}, F_TOKEN, F_TOKEN)
    starts[token] = start
  end
  return start
end

-- A job leased for the first time, with no error, result or finish: its head ends with its line
-- score (F_LINE, the text ZPOPMIN gave, up to 31 bytes: msgpack's fixstr), and what comes before
-- depends only on the attempt, the start (now) and the token, which the jobs of one lease call
-- with the same attempt share.
local function leased_head_pack(job, body, starts)
  local line = job[F_LINE]
  if job[F_PREV_TOKEN] ~= 0 or job[F_ERROR] ~= 0 or job[F_RESULT] ~= 0 or job[F_FINISHED] ~= 0
    or job[F_ENDED] ~= 0 or job[F_PREV_ENDED] ~= 0 or type(line) ~= 'string' or #line > 31 then
    return job_pack_head(job, body)
  end
  return leased_start(starts, job[F_TOKEN], job[F_ATTEMPTS], job[F_STARTED]) .. str_char(0xa0 + #line) .. line
    .. body
end

-- A job done without a result or an error, as the ack's finished record (finished_record) leaves
-- it: its head ends with its token, and is the same for the jobs of one ack call that one lease
-- call leased (same token, start and attempt).
local function done_head_pack(job, body, starts)
  local err = job[F_ERROR]
  local result = job[F_RESULT]
  if (err ~= 0 and err ~= '') or (result ~= 0 and result ~= '') or job[F_LINE] ~= 0
    or job[F_ENDED] ~= 0 or job[F_PREV_TOKEN] ~= 0 or job[F_PREV_ENDED] ~= 0 or job[F_STATE] ~= ST_DONE then
    return job_pack_head(job, body)
  end
  return done_start(starts, job[F_TOKEN], job[F_ATTEMPTS], job[F_STARTED], job[F_FINISHED]) .. body
end

local function job_store(id, job)
  redis.call('HSET', record_key(id), id, job_pack(job))
  legacy_forget(id)
end

-- Code an ack/nack/extend/release gets when the job is not leased under its token: what ended
-- that token's lease, or what became of the job.
local function not_leased_code(job, token)
  local st = job[F_STATE]
  if st == ST_CANCELLED then
    return C_CANCELLED
  elseif st == ST_EXPIRED then
    return C_EXPIRED
  elseif st == ST_DONE then
    if job[F_TOKEN] == token then
      return C_OK
    end
    return C_ALREADY_DONE
  end
  local ended
  if job[F_TOKEN] == token then
    ended = job[F_ENDED]
  elseif job[F_PREV_TOKEN] == token then
    ended = job[F_PREV_ENDED]
  else
    return C_WRONG_TOKEN
  end
  if ended == END_NACKED then
    return C_NACKED
  elseif ended == END_RELEASED then
    return C_RELEASED
  elseif st == ST_LEASED then
    return C_LEASED_AGAIN
  end
  return C_LEASE_EXPIRED
end

-- The job held under this lease token, or nil and the code saying why not (for nack and extend,
-- where a finished job is an error even when this lease finished it).
local function job_held(id, token)
  local job = job_load(id)
  if not job then
    return nil, C_NOT_FOUND
  end
  if job[F_STATE] ~= ST_LEASED or job[F_TOKEN] ~= token then
    local code = not_leased_code(job, token)
    if code == C_OK then
      code = C_ALREADY_DONE
    end
    return nil, code
  end
  return job, C_OK
end
