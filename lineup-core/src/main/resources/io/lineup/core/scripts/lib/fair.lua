-- Fair queues (docs/fairness.md): a queue whose setting fair is 1 serves its fairness keys (tenants,
-- customers) in turn. A job may carry a key of 1 to 128 characters; jobs without one share the
-- unnamed key ''.
--
-- The order is start-time fair queueing with weights, kept in the one ready line. Each key has, per
-- priority class, a tagger: the i-th job it tags gets base + floor(i * FAIR_QUANTUM / weight), and
-- the job's score is its class's range start plus that tag (lib/score.lua). A tagger behind the head
-- of its class (its key was idle, blocked or is new) starts again at the head's tag, so a key that
-- comes back is served within one turn and earns no credit for the time it had nothing waiting. A
-- turn is FAIR_QUANTUM tag units, in which a key of weight w has w jobs. The line stays one sorted
-- set, so a job's position is still its ZRANK: the jobs of its own key ahead of it and every other
-- key's jobs up to the same turn. When a class of the line is empty its tags start again from 0:
-- each class has an epoch (field '#<class>' of the tag hash), and a tagger of an earlier epoch is
-- treated as none.
--
-- Keys, each K_META, ':fair:' and these (fair_key_name), so they keep the queue's hash tag and slot:
--   tags             hash: key -> msgpack map class -> {epoch, base, i, weight}; '#<class>' -> epoch
--   keys             hash: key -> msgpack {weight, concurrency, rate, rate_period_ms, max_waiting,
--                    paused} for keys with settings of their own (-1: the queue's key_* setting)
--   waiting_counts   hash: key -> its jobs waiting (ready, delayed or parked), less those in taken
--   taken            string: the keys of jobs leased since the last fold, each followed by a line
--                    feed, one per job (FAIR.fold)
--   leased_counts    hash: key -> its jobs leased, kept once some key has a concurrency limit
--                    (meta field fair_leased_counts = 1; until then counted from the leased set)
--   blocks           hash: the open blocks of generated ids of ready jobs (lib/make.lua)
-- The counts are hashes, not sorted sets: a lease changes the count of as many keys as it takes
-- jobs, and a sorted set's scores are doubles, formatted as text and parsed again at every read and
-- write; the keys with most jobs (fair_top.lua) are sorted when asked instead.
--   rate:<key>       string: the key's rate limit's theoretical arrival time (epoch ms), expiring
--   park:<key>       sorted set: the ready jobs of a paused key, by class then creation time
-- and each keyed job's entry in the hash beside its record's bucket (the bucket's name and ','): its
-- key, and while it waits in the line at its key's turn, its tag (fair_entry).
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/score.lua
local FAIR_QUANTUM = 100   -- tag units per turn; weights are 1 to FAIR_QUANTUM
local FAIR_SCAN_MAX = 512  -- most jobs a lease looks at past jobs of keys at their limits
local FAIR_LEASED_SCAN_MAX = 100000 -- most leased jobs counted by key when the queue does not count them

-- The name of one of the queue's fairness keys: the only place fairness derives a Redis key, from
-- the queue's meta key, so every one keeps the queue's hash tag and Redis Cluster slot (as
-- record_key does for records, lib/job.lua).
local function fair_key_name(part)
  return K_META .. ':fair:' .. part
end

-- This call's reads and writes: whether the queue is fair, the queue's key_* settings, each key's
-- settings, taggers and leased count, each class's head, which taggers changed, and count texts.
-- fold_at (bytes, FAIR.fold) is a constant kept here: a script's main function has room for 200
-- locals.
local FAIR = {settings = {}, taggers = {}, classes = {}, leased_now = {}, tats = {}, sidecars = {},
  texts = {}, fold_at = 131072}

-- Whether the queue is fair, read once per call.
local function fair_on()
  local on = FAIR.on
  if on == nil then
    on = redis.call('HGET', K_META, 'fair') == '1'
    FAIR.on = on
  end
  return on
end

-- The hash that holds the fairness keys of the jobs whose records share id's bucket (lib/job.lua):
-- the name of the bucket's hash and ','.
local function fair_sidecar(id)
  local hash = record_key(id)
  local name = FAIR.sidecars[hash]
  if not name then
    name = hash .. ','
    FAIR.sidecars[hash] = name
  end
  return name
end

-- A job's entry in its sidecar: its key, and while it waits in the line with a score of its key's
-- turn, a space and its tag (the score less its class's range start, lib/score.lua), so that a lease
-- needs no score from the line: a release or an expired lease puts the job back at the score its
-- priority and tag make (fair_tag_line). A key never holds a space (FairnessKey.java), so an entry
-- of earlier versions (the key alone) reads as one without a tag. A job without a key has no entry,
-- and its lease keeps its score in its leased record, as a job whose entry has no tag does.
local function fair_entry(key, tag)
  if tag then
    return key .. ' ' .. tag
  end
  return key
end

-- The line score (text) of a job of priority whose entry holds tag (text).
local function fair_tag_line(priority, tag)
  return int_text((PRIORITY_MAX - priority) * ARRIVAL_SPAN + tonumber(tag))
end

-- The keys of ids, in order ('' for a job without one), and the positions of the ids whose entry
-- holds no tag (or which have none), in order: one HMGET per bucket (record_groups; groups: the
-- caller's record_groups(ids, 1), else made here).
-- leasing: the hashes are read for a lease, which will forget the keys again at the ack; they
-- become hash tables first, as the records' do (record_hash_make_table, lib/job.lua).
local function fair_keys_of(ids, leasing, groups)
  local keys, untagged = {}, {}
  for _, group in ipairs(groups or record_groups(ids, 1)) do
    local first = ids[group[1]]
    if leasing and (#group > 2 or group[2] > group[1]) then
      local encoding = redis.call('OBJECT', 'ENCODING', fair_sidecar(first))
      if encoding == 'listpack' or encoding == 'ziplist' then
        redis.call('HSET', fair_sidecar(first), ' ', listpack_breaker())
        redis.call('HDEL', fair_sidecar(first), ' ')
      end
    end
    local got = redis.call('HMGET', fair_sidecar(first), group_values(ids, group))
    local k = 0
    for r = 1, #group, 2 do
      for i = group[r], group[r + 1] do
        k = k + 1
        local entry = got[k]
        local space = entry and str_find(entry, ' ', 1, true)
        if space then
          keys[i] = str_sub(entry, 1, space - 1)
        else
          keys[i] = entry or ''
          untagged[#untagged + 1] = i
        end
      end
    end
  end
  if #untagged > 1 then
    table.sort(untagged)
  end
  return keys, untagged
end

-- The key of one job ('' for none) and its tag (text, nil for none).
local function fair_entry_of(id)
  local entry = redis.call('HGET', fair_sidecar(id), id)
  if not entry then
    return '', nil
  end
  local space = str_find(entry, ' ', 1, true)
  if not space then
    return entry, nil
  end
  return str_sub(entry, 1, space - 1), str_sub(entry, space + 1)
end

-- The key of one job ('' for none).
local function fair_key_of(id)
  return (fair_entry_of(id))
end

-- Stores the entries of jobs given as pairs: id, entry (fair_entry; none of a job without a key).
local function fair_keys_put(pairs)
  for _, group in ipairs(record_groups(pairs, 2)) do
    redis.call('HSET', fair_sidecar(pairs[group[1]]), group_values(pairs, group))
  end
end

-- Forgets the keys of jobs that left the queue's lines for good. groups: the caller's
-- record_groups(ids, 1), else made here.
local function fair_keys_forget(ids, groups)
  for _, group in ipairs(groups or record_groups(ids, 1)) do
    redis.call('HDEL', fair_sidecar(ids[group[1]]), group_values(ids, group))
  end
end

-- The queue's key_* settings (lib/settings.lua names them), read once per call, and whether it
-- counts each key's leased jobs as they change (counting: see fair_counting_start).
local function fair_defaults()
  local d = FAIR.defaults
  if not d then
    local v = redis.call('HMGET', K_META, 'key_concurrency', 'key_rate', 'key_rate_period_ms', 'key_max_waiting',
      'fair_leased_counts')
    d = {concurrency = tonumber(v[1]) or 0, rate = tonumber(v[2]) or 0, period = tonumber(v[3]) or 1000,
      max_waiting = tonumber(v[4]) or 0, counting = v[5] == '1'}
    FAIR.defaults = d
  end
  return d
end

-- A key's settings: its own where it has them, else the queue's key_* settings. Weight 1 by default.
local function fair_settings(key)
  local ks = FAIR.settings[key]
  if ks then
    return ks
  end
  local d = fair_defaults()
  if FAIR.own_settings == nil then
    -- Most queues give no key settings of its own: then no key needs looking up.
    FAIR.own_settings = redis.call('EXISTS', fair_key_name('keys')) == 1
  end
  local raw = FAIR.own_settings and redis.call('HGET', fair_key_name('keys'), key)
  if not raw then
    -- A key without settings of its own has the queue's: one table shared by all such keys of the
    -- call (a lease meets as many keys as jobs). Read only.
    ks = FAIR.shared_settings
    if not ks then
      ks = {weight = 1, concurrency = d.concurrency, rate = d.rate, period = d.period,
        max_waiting = d.max_waiting, paused = false}
      FAIR.shared_settings = ks
    end
    FAIR.settings[key] = ks
    return ks
  end
  local o = cmsgpack.unpack(raw)
  local function own(i, default)
    local v = o[i]
    if v == nil or v < 0 then
      return default
    end
    return v
  end
  ks = {weight = own(1, 1), concurrency = own(2, d.concurrency), rate = own(3, d.rate),
    period = own(4, d.period), max_waiting = own(5, d.max_waiting), paused = o[6] == 1}
  if ks.weight < 1 then
    ks.weight = 1
  end
  FAIR.settings[key] = ks
  return ks
end

-- A class's head tag and epoch this call; the epoch moves on when the class's range is empty.
local function fair_class(class)
  local c = FAIR.classes[class]
  if c then
    return c
  end
  local low = class * ARRIVAL_SPAN
  local head = redis.call('ZRANGEBYSCORE', K_READY, int_text(low), '(' .. int_text(low + ARRIVAL_SPAN),
    'LIMIT', 0, 1, 'WITHSCORES')
  local field = '#' .. class
  local epoch = tonumber(redis.call('HGET', fair_key_name('tags'), field) or '0')
  if #head == 0 then
    epoch = epoch + 1
    redis.call('HSET', fair_key_name('tags'), field, epoch)
    c = {head = 0, epoch = epoch}
  else
    c = {head = tonumber(head[2]) - low, epoch = epoch}
  end
  FAIR.classes[class] = c
  return c
end

-- A key's taggers (and its park's counter), read once per call.
local function fair_taggers(key)
  local taggers = FAIR.taggers[key]
  if not taggers then
    local raw = redis.call('HGET', fair_key_name('tags'), key)
    taggers = {}
    if raw then
      taggers = cmsgpack.unpack(raw)
    end
    FAIR.taggers[key] = taggers
  end
  return taggers
end

-- The next line score of a job of key at priority, and its tag (the score less its class's range
-- start), moving the key's tagger on (written by fair_flush).
local function fair_score(key, priority)
  local class = PRIORITY_MAX - priority
  local taggers = fair_taggers(key)
  local weight = fair_settings(key).weight
  local c = fair_class(class)
  local t = taggers[class]
  if not t or t[1] ~= c.epoch then
    t = {c.epoch, c.head, 0, weight}
  else
    local next_tag = t[2] + math.floor(t[3] * FAIR_QUANTUM / t[4])
    if t[4] ~= weight or next_tag < c.head then
      t = {c.epoch, math.max(next_tag, c.head), 0, weight}
    end
  end
  taggers[class] = t
  local tag = t[2] + math.floor(t[3] * FAIR_QUANTUM / weight)
  if tag >= ARRIVAL_SPAN then
    error({err = 'LINEUP fairness tags of this queue are exhausted until its line empties'})
  end
  t[3] = t[3] + 1
  FAIR.dirty = true
  return class * ARRIVAL_SPAN + tag, tag
end

-- Writes the taggers this call moved (all it read, which are few).
local function fair_flush()
  if not FAIR.dirty then
    return
  end
  local pairs_out = {}
  for key, taggers in pairs(FAIR.taggers) do
    pairs_out[#pairs_out + 1] = key
    pairs_out[#pairs_out + 1] = cmsgpack.pack(taggers)
  end
  redis.call('HSET', fair_key_name('tags'), unpack(pairs_out))
  FAIR.dirty = false
end

-- A count's text, made once per call (fair_count).
function FAIR.count_text(v)
  local t = SMALL_TEXTS[v + 1] or FAIR.texts[v]
  if not t then
    t = int_text(v)
    FAIR.texts[v] = t
  end
  return t
end

-- Adds to keys' counts in a count hash (which: 'waiting' or 'leased'): deltas maps key -> change.
-- A key whose count reaches 0 leaves the hash; one with nothing waiting also loses its taggers. One
-- HMGET and one HSET for all the keys (and one HDEL for those brought to 0), not a command each: a
-- fold, or a lease of a queue that counts leased jobs, changes the counts of hundreds of keys.
local function fair_count(which, deltas)
  local keys, changes, n = {}, {}, 0
  for key, delta in pairs(deltas) do
    if delta ~= 0 then
      n = n + 1
      keys[n], changes[n] = key, delta
    end
  end
  if n == 0 then
    return
  end
  -- A count's text is looked up below 100 (the texts count_text makes there, lib/clock.lua), else
  -- parsed once per call (FAIR.numbers) and made once per call (FAIR.count_text): tonumber costs
  -- a count about 800 instructions (strtod), string.format more, and a fold reads and writes as
  -- many counts as keys, the keys of one queue's backlog often at alike counts.
  local numbers = FAIR.numbers
  if not numbers then
    numbers = {}
    for i, t in ipairs(SMALL_TEXTS) do
      numbers[t] = i - 1
    end
    FAIR.numbers = numbers
  end
  local counts = redis.call('HMGET', fair_key_name(which .. '_counts'), unpack(keys, 1, n))
  -- The new counts replace the texts read, in the reply's own table; with none at 0 (the common
  -- case), that table then takes the HSET's key/count pairs too, filled from its end (pair j goes
  -- to places 2j - 1 and 2j, at or past j, so no count still to be read is overwritten): no table
  -- of pairs made, which a lease of hundreds of keys made and dropped again.
  local emptied = {}
  for j = 1, n do
    local count = counts[j]
    local v = changes[j]
    if count then
      local c = numbers[count]
      if not c then
        c = tonumber(count)
        numbers[count] = c
      end
      v = v + c
    end
    counts[j] = v
    if v <= 0 then
      emptied[#emptied + 1] = keys[j]
    end
  end
  local kept, n_kept = counts, 2 * n
  if #emptied == 0 then
    for j = n, 1, -1 do
      local v = counts[j]
      counts[2 * j - 1], counts[2 * j] = keys[j], FAIR.count_text(v)
    end
  else
    kept, n_kept = {}, 0
    for j = 1, n do
      local v = counts[j]
      if v > 0 then
        kept[n_kept + 1], kept[n_kept + 2] = keys[j], FAIR.count_text(v)
        n_kept = n_kept + 2
      end
    end
  end
  if n_kept > 0 then
    redis.call('HSET', fair_key_name(which .. '_counts'), unpack(kept, 1, n_kept))
  end
  if #emptied > 0 then
    redis.call('HDEL', fair_key_name(which .. '_counts'), unpack(emptied))
    if which == 'waiting' then
      redis.call('HDEL', fair_key_name('tags'), unpack(emptied))
      for _, key in ipairs(emptied) do
        FAIR.taggers[key] = nil
      end
    end
  end
end

-- The jobs a lease takes leave their keys' waiting counts through a log rather than key by key:
-- the lease appends their keys to the string fair_key_name('taken') (one APPEND of the keys joined,
-- fair_leased), and FAIR.fold subtracts the log from the counts, each key once for all its jobs
-- there, when the log holds FAIR.fold_at bytes or more (128 KiB: about 10,000 keys of 12
-- characters) and before a count of waiting jobs is read (fair_count_of, fair_top.lua). Why: a
-- lease takes one job of each of as many keys as jobs, and counting them at the lease (a read and
-- a write of each key's count, parsed and formatted as text) cost it about a tenth of its work per
-- job; a fold writes each key once for the dozens of its jobs the log holds. A list (RPUSH, LRANGE)
-- made a Redis value and a Lua string per key, which cost more than the string's one concatenation.
-- A stored count is never below the true one (the log only subtracts), so a count that reaches 0
-- outside a fold is a key with nothing waiting indeed; a key emptied by leases keeps its taggers
-- until the next fold (fair_score then starts its next job at the later of its next turn and the
-- current one, as for any key).

-- Subtracts the log of taken keys from the waiting counts and empties it. (A field of FAIR, not a
-- local: lease.lua's main function has room for 200 locals and holds them all.)
function FAIR.fold()
  local taken = redis.call('GET', fair_key_name('taken'))
  if not taken then
    return
  end
  redis.call('DEL', fair_key_name('taken'))
  local deltas = {}
  -- A key holds no line feed (FairnessKey.java); a job without a key logs an empty line.
  for key in string.gmatch(taken, '([^\n]*)\n') do
    deltas[key] = (deltas[key] or 0) - 1
  end
  fair_count('waiting', deltas)
end

-- A key's count in a count hash (which: 'waiting' or 'leased'); waiting counts are folded first.
local function fair_count_of(which, key)
  if which == 'waiting' then
    FAIR.fold()
  end
  return tonumber(redis.call('HGET', fair_key_name(which .. '_counts'), key) or '0')
end

-- Counts one job of key moving between waiting and leased: from and to are 'waiting',
-- 'leased' or nil (arriving or leaving for good).
local function fair_moved(key, from, to)
  if from then
    fair_count(from, {[key] = -1})
  end
  if to then
    fair_count(to, {[key] = 1})
  end
end

-- Each key's jobs leased now, counted from the leased set (at most FAIR_LEASED_SCAN_MAX of them),
-- for a queue that does not count them as they change; once per call.
local function fair_leased_scan()
  local counts = FAIR.leased_scan
  if not counts then
    counts = {}
    local ids = redis.call('ZRANGE', K_LEASED, 0, FAIR_LEASED_SCAN_MAX - 1)
    if #ids > 0 then
      for _, key in ipairs(fair_keys_of(ids)) do
        counts[key] = (counts[key] or 0) + 1
      end
    end
    FAIR.leased_scan = counts
  end
  return counts
end

-- The jobs of key leased now, read once per call and kept up to date by fair_pick.
local function fair_leased_now(key)
  local n = FAIR.leased_now[key]
  if not n then
    if fair_defaults().counting then
      n = fair_count_of('leased', key)
    else
      n = fair_leased_scan()[key] or 0
    end
    FAIR.leased_now[key] = n
  end
  return n
end

-- From now on, count each key's leased jobs as they change: a key's concurrency limit checks its
-- count. Counting costs a lease and an ack a command per key, so a queue counts only once some key
-- has such a limit (configure.lua, fair_key_write.lua); it starts from the leased set as it is.
local function fair_counting_start()
  if fair_defaults().counting then
    return
  end
  redis.call('DEL', fair_key_name('leased_counts'))
  local ids = redis.call('ZRANGE', K_LEASED, 0, -1)
  local counts = {}
  for from = 1, #ids, 1000 do
    local slice = {unpack(ids, from, math.min(#ids, from + 999))}
    for _, key in ipairs(fair_keys_of(slice)) do
      counts[key] = (counts[key] or 0) + 1
    end
  end
  for key, n in pairs(counts) do
    redis.call('HSET', fair_key_name('leased_counts'), key, count_text(n))
  end
  redis.call('HSET', K_META, 'fair_leased_counts', '1')
  FAIR.defaults.counting = true
end

-- A paused key's job's score in its park: its class, then its creation time (epoch ms), so a
-- resumed key's jobs come back in the order they were published (jobs of one millisecond in the
-- order of their ids), whether a lease met them in the line or they came while it was paused.
local function fair_park_score(priority, created)
  return int_text((PRIORITY_MAX - priority) * ARRIVAL_SPAN + created)
end

-- Puts a ready job back in line: at its score, when known, else at its key's next turn (and its
-- entry's tag with it); a paused key's job in its park instead.
local function fair_line_add(id, key, priority, at)
  if fair_settings(key).paused then
    local job = job_load(id)
    redis.call('ZADD', fair_key_name('park:' .. key), fair_park_score(priority, job and job[F_CREATED] or 0), id)
    return
  end
  if not at then
    local score, tag = fair_score(key, priority)
    at = int_text(score)
    if key ~= '' then
      redis.call('HSET', fair_sidecar(id), id, fair_entry(key, int_text(tag)))
    end
  end
  redis.call('ZADD', K_READY, at, id)
  fair_flush()
end

-- Picks up to count jobs from the front of a fair line for a lease, passing over the jobs of keys at
-- their concurrency or rate limit (they keep their places) and moving the jobs of paused keys to
-- their parks; looks at most FAIR_SCAN_MAX jobs. Takes the picked jobs out of the line. Returns
-- the picked ids, their scores (text) where the lease keeps them in the leased records (jobs whose
-- entry holds no tag, fair_entry; nil for the others) and keys, when nothing could be picked for
-- limits, the ms until a rate limit lets a key's job go (-1: until a leased job of a key ends), and
-- whether jobs were passed over for limits; last, record_groups(ids, 1) when it was made.
local function fair_pick(count, now)
  local d = fair_defaults()
  if FAIR.own_settings == nil then
    FAIR.own_settings = redis.call('EXISTS', fair_key_name('keys')) == 1
  end
  if not FAIR.own_settings and d.concurrency <= 0 and d.rate <= 0 then
    -- No key has settings of its own and the queue's key_* set no limit: no job is passed over or
    -- parked, so the lease takes the front of the line as a plain queue's does, keys read once.
    local ids = redis.call('ZRANGE', K_READY, 0, math.min(count, FAIR_SCAN_MAX) - 1)
    local lines = {}
    if #ids == 0 then
      return ids, lines, {}, -1, false
    end
    local groups = record_groups(ids, 1)
    local keys, untagged = fair_keys_of(ids, true, groups)
    if #untagged > 0 then
      local names = {}
      for j, i in ipairs(untagged) do
        names[j] = ids[i]
      end
      local scores = redis.call('ZMSCORE', K_READY, unpack(names))
      for j, i in ipairs(untagged) do
        lines[i] = scores[j]
      end
    end
    redis.call('ZREMRANGEBYRANK', K_READY, 0, #ids - 1)
    return ids, lines, keys, -1, false, groups
  end
  local ids, lines, keys = {}, {}, {}
  local n, offset = 0, 0
  local taken = {}          -- key -> jobs picked this call
  local parked, parked_keys = {}, {}  -- ids of paused keys' jobs met, and their keys
  local out = {}            -- ids leaving the line (picked or parked)
  local scored = {}         -- positions in ids of picked jobs whose entry holds no tag
  local passed = false      -- whether a job was passed over (out is then not the line's front)
  local wait = -1
  local limited = false
  while n < count and offset < FAIR_SCAN_MAX do
    -- The jobs still wanted and a few more: most leases pass over no job, and every job looked at
    -- costs its key's lookup.
    local chunk = math.min(FAIR_SCAN_MAX - offset, count - n + 16)
    local chunk_ids = redis.call('ZRANGE', K_READY, offset, offset + chunk - 1)
    if #chunk_ids == 0 then
      break
    end
    local chunk_keys, untagged = fair_keys_of(chunk_ids, true)
    local no_tag = {}
    for _, j in ipairs(untagged) do
      no_tag[j] = true
    end
    for j, id in ipairs(chunk_ids) do
      local key = chunk_keys[j]
      local ks = fair_settings(key)
      local ok = true
      if ks.paused then
        ok = false
        parked[#parked + 1] = id
        parked_keys[#parked_keys + 1] = key
        out[#out + 1] = id
      elseif ks.concurrency > 0 and fair_leased_now(key) + (taken[key] or 0) >= ks.concurrency then
        ok = false
        limited = true
        passed = true
      elseif ks.rate > 0 then
        -- GCRA without burst: one job of the key per period / rate, evenly spaced.
        local tat = FAIR.tats[key]
        if tat then
          tat = tat[1]
        else
          tat = tonumber(redis.call('GET', fair_key_name('rate:' .. key)) or '0')
        end
        if tat > now then
          ok = false
          limited = true
          passed = true
          local until_free = math.ceil(tat - now)
          if wait < 0 or until_free < wait then
            wait = until_free
          end
        else
          local interval = ks.period / ks.rate
          FAIR.tats[key] = {math.max(tat, now) + interval, interval}
        end
      end
      if ok then
        n = n + 1
        ids[n], keys[n] = id, key
        if no_tag[j] then
          scored[#scored + 1] = n
        end
        taken[key] = (taken[key] or 0) + 1
        out[#out + 1] = id
        if n == count then
          break
        end
      end
    end
    offset = offset + #chunk_ids
    if #chunk_ids < chunk then
      break
    end
  end
  if #scored > 0 then
    local names = {}
    for j, i in ipairs(scored) do
      names[j] = ids[i]
    end
    local scores = redis.call('ZMSCORE', K_READY, unpack(names))
    for j, i in ipairs(scored) do
      lines[i] = scores[j]
    end
  end
  if #out > 0 and not passed then
    -- The front of the line, by rank: no member to look up.
    redis.call('ZREMRANGEBYRANK', K_READY, 0, #out - 1)
  elseif #out > 0 then
    redis.call('ZREM', K_READY, unpack(out))
  end
  if #parked > 0 then
    local raws = records_get_spread(parked, false)
    for j, id in ipairs(parked) do
      if raws[j] then
        local job = job_decode(raws[j])
        redis.call('ZADD', fair_key_name('park:' .. parked_keys[j]), fair_park_score(job[F_PRIORITY], job[F_CREATED]), id)
      end
    end
  end
  for key, tat in pairs(FAIR.tats) do
    -- Kept a period past its time: a key idle longer than that starts afresh.
    redis.call('SET', fair_key_name('rate:' .. key), tostring(tat[1]), 'PX', math.ceil(tat[1] - now + tat[2]) + 1)
  end
  if n > 0 or not limited then
    wait = -1
  end
  return ids, lines, keys, wait, limited
end

-- Counts the jobs a lease leased, given as a list of their keys: out of waiting through the log of
-- taken keys (FAIR.fold), and into the leased counts when the queue keeps them.
local function fair_leased(leased_keys)
  local logged = redis.call('APPEND', fair_key_name('taken'), table.concat(leased_keys, '\n') .. '\n')
  if logged >= FAIR.fold_at then
    FAIR.fold()
  end
  if not fair_defaults().counting then
    return
  end
  local leased = {}
  for _, key in ipairs(leased_keys) do
    leased[key] = (leased[key] or 0) + 1
  end
  fair_count('leased', leased)
end

-- Counts leased jobs that ended for good (acked) and forgets their keys; wakes a consumer when a
-- key with a concurrency limit got a slot back, since leases passed its jobs over. groups: the
-- caller's record_groups(ids, 1), else made here.
local function fair_settled(ids, groups)
  if not fair_defaults().counting then
    fair_keys_forget(ids, groups)
    return
  end
  groups = groups or record_groups(ids, 1)
  local keys = fair_keys_of(ids, false, groups)
  local leased = {}
  local freed = false
  for _, key in ipairs(keys) do
    leased[key] = (leased[key] or 0) - 1
    if fair_settings(key).concurrency > 0 then
      freed = true
    end
  end
  fair_count('leased', leased)
  fair_keys_forget(ids, groups)
  if freed and redis.call('LLEN', K_WAKE) == 0 then
    redis.call('RPUSH', K_WAKE, '1')
  end
end

-- Counts a leased job of key whose lease ended without finishing it: back to waiting (to =
-- 'waiting') or dead (nil). Wakes a consumer when the key has a concurrency limit.
local function fair_unleased(key, to)
  if not fair_defaults().counting then
    fair_moved(key, nil, to)
    return
  end
  fair_moved(key, 'leased', to)
  if fair_settings(key).concurrency > 0 and redis.call('LLEN', K_WAKE) == 0 then
    redis.call('RPUSH', K_WAKE, '1')
  end
end
