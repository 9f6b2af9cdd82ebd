-- The ready line: one sorted set whose score is (priority, arrival), so ZRANK is the exact position.
-- Score = (PRIORITY_MAX - priority) * ARRIVAL_SPAN + seq: higher priority first, FIFO within one.
-- Both terms stay below 2^53, so the double score is exact.
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/score.lua
--#include lib/fair.lua

-- Reserves n arrival numbers at once; returns the first. Unused ones are simply skipped.
local function arrivals_reserve(n)
  local last = redis.call('HINCRBY', K_META, 'seq', count_text(n))
  if last >= ARRIVAL_SPAN then
    error({err = 'LINEUP arrival sequence of this queue is exhausted'})
  end
  return last - n + 1
end

-- A job's score in the line as text (lib/clock.lua): its priority first, then its arrival.
local function line_score(priority, seq)
  return int_text((PRIORITY_MAX - priority) * ARRIVAL_SPAN + seq)
end

-- The base-62 digits of generated ids by value + 1 (0-9, then A-Z, then a-z; arrival_text) and
-- two decimal digits by value + 1 (score_text): looked up, not cut from a string or formatted per
-- job.
local BASE62_DIGITS = {
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K',
  'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'a', 'b', 'c', 'd', 'e', 'f',
  'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z'
}
local DECIMAL_PAIRS = {
  '00', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16', '17',
  '18', '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31', '32', '33', '34', '35',
  '36', '37', '38', '39', '40', '41', '42', '43', '44', '45', '46', '47', '48', '49', '50', '51', '52', '53',
  '54', '55', '56', '57', '58', '59', '60', '61', '62', '63', '64', '65', '66', '67', '68', '69', '70', '71',
  '72', '73', '74', '75', '76', '77', '78', '79', '80', '81', '82', '83', '84', '85', '86', '87', '88', '89',
  '90', '91', '92', '93', '94', '95', '96', '97', '98', '99'
}

-- The text of a whole number n >= 0 in base 62 (arrival_of's inverse), '' for 0.
local function arrival_text(n)
  local digits = ''
  while n > 0 do
    local d = n % 62
    digits = BASE62_DIGITS[d + 1] .. digits
    n = (n - d) / 62
  end
  return digits
end

-- The id publish generates for arrival seq: '~' and seq in base 62. A call's ids are of consecutive
-- arrivals, so all but the last digit is made once per 62 ids (ARRIVAL_PREFIX, per call).
local ARRIVAL_PREFIX = {high = -1, text = '~'}
local function arrival_id(seq)
  local low = seq % 62
  local high = (seq - low) / 62
  if high ~= ARRIVAL_PREFIX.high then
    ARRIVAL_PREFIX.high, ARRIVAL_PREFIX.text = high, '~' .. arrival_text(high)
  end
  return ARRIVAL_PREFIX.text .. BASE62_DIGITS[low + 1]
end

-- A line score's text (int_text) for calls that make the scores of consecutive arrivals: the text of
-- all but its last two digits is made once per hundred scores and kept in cache (a table of the
-- caller's, one per priority), the last two are looked up. Formatting each score cost about a
-- twentieth of a published job's instructions (string.format).
local function score_text(cache, score)
  if score < 100 then
    return int_text(score)
  end
  local low = score % 100
  local high = (score - low) / 100
  if cache.high ~= high then
    cache.high, cache.high_text = high, int_text(high)
  end
  return cache.high_text .. DECIMAL_PAIRS[low + 1]
end

-- The arrival number a generated id writes in base 62 after its '~' (publish.lua): digits 0-9,
-- then A-Z, then a-z.
local function arrival_of(id)
  local n = 0
  for i = 2, #id do
    local b = str_byte(id, i)
    if b <= 57 then
      b = b - 48
    elseif b <= 90 then
      b = b - 55
    else
      b = b - 61
    end
    n = n * 62 + b
  end
  return n
end

-- Whether a job's line score is the one publish gave it, which its id and priority say
-- (line_score(priority, arrival_of(id))): a job with a generated id ('~') whose record is whole
-- and holds no due time and no expiry, at most 7 values (first, its msgpack fixarray header, 0x92
-- to 0x97). Only publish puts such a record in the line, and with that score: a delayed job has a
-- due time, and a job retried, respawned or released has a record of more values. A lease leaves
-- the score of such a job out of the leased record (lease.lua), since asking Redis for it
-- (ZPOPMIN's scores, formatted as text) cost a twelfth of the lease and ack; a release derives it.
local function line_derivable(id, first)
  -- generated(id) written out: the lease asks this of every job, and the call cost 1.2 % of a
  -- consumed job's instructions (drain-instructions: 64,830 against 64,056 Ir).
  return first >= 0x92 and first <= 0x97 and str_byte(id, 1) == 126
end

-- The score a leased job goes back to when it returns to its place (a release, an expired lease):
-- the one its leased record keeps; else, for a fair queue's job whose key's entry holds its tag
-- (fair_tag: text, from fair_entry_of), the score its priority and tag make (lib/fair.lua); else,
-- by line_derivable's rule, the score publish gave it (generated id, no due time, no expiry); else
-- nil (a record of an earlier build without a score; its job goes to the back of the line).
local function line_leased(id, job, fair_tag)
  local line = job[F_LINE]
  if present(line) then
    return line
  end
  if fair_tag then
    return fair_tag_line(job[F_PRIORITY], fair_tag)
  end
  if generated(id) and not present(job[F_DUE]) and not present(job[F_EXPIRES]) then
    return line_score(job[F_PRIORITY], arrival_of(id))
  end
  return nil
end

-- Puts a job at the back of its priority's line (in a fair queue: at its key's next turn).
local function line_add(id, priority)
  if fair_on() then
    fair_line_add(id, fair_key_of(id), priority)
    return
  end
  redis.call('ZADD', K_READY, line_score(priority, arrivals_reserve(1)), id)
end

-- One wake-up token is enough: a consumer that takes jobs and leaves some behind passes it on.
local function wake()
  if redis.call('LLEN', K_WAKE) == 0 then
    redis.call('RPUSH', K_WAKE, '1')
  end
end

-- A delayed job that became the earliest changes how long consumers should wait.
local function delay_add(id, due)
  redis.call('ZADD', K_DELAYED, due, id)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0)
  if first[1] == id then
    wake()
  end
end

-- Moves due delayed jobs to the line without waking a consumer; returns how many moved. For a
-- lease, which takes them itself and wakes the others only for what it leaves behind. Their records
-- are read with one HMGET per records hash and they join the line with one ZADD, instead of an HGET
-- and a ZADD per job: when many jobs fall due at once, each redis.call saved is about a microsecond
-- of the call.
local function promote_due_quietly(now, limit)
  local due = redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, limit)
  if #due == 0 then
    return 0
  end
  local fair = fair_on()
  local seq, keys
  if fair then
    keys = fair_keys_of(due)
  else
    seq = arrivals_reserve(#due)
  end
  -- Due jobs are about to be leased, so their hashes become hash tables now (records_get).
  local raws = records_get(due, true)
  local scores = {}         -- ZADD score/member pairs for the line
  local entries = {}        -- a fair queue's id/entry pairs: the keyed jobs' tags (fair_entry)
  for i, id in ipairs(due) do
    if raws[i] then
      local job = job_decode(raws[i])
      if fair then
        local key = keys[i]
        if fair_settings(key).paused then
          redis.call('ZADD', fair_key_name('park:' .. key), fair_park_score(job[F_PRIORITY], job[F_CREATED]), id)
        else
          local score, tag = fair_score(key, job[F_PRIORITY])
          scores[#scores + 1] = int_text(score)
          scores[#scores + 1] = id
          if key ~= '' then
            entries[#entries + 1] = id
            entries[#entries + 1] = fair_entry(key, int_text(tag))
          end
        end
      else
        scores[#scores + 1] = line_score(job[F_PRIORITY], seq + i - 1)
        scores[#scores + 1] = id
      end
      note('ready', id)
    end
  end
  if fair then
    fair_flush()
    if #entries > 0 then
      fair_keys_put(entries)
    end
  end
  if #scores > 0 then
    redis.call('ZADD', K_READY, unpack(scores))
  end
  redis.call('ZREM', K_DELAYED, unpack(due))
  return #due
end

-- Moves due delayed jobs to the line and wakes a consumer for them; returns how many moved.
local function promote_due(now, limit)
  local moved = promote_due_quietly(now, limit)
  if moved > 0 then
    wake()
  end
  return moved
end

-- Milliseconds until the earliest delayed job is due, or -1 when none is delayed.
local function next_due_in(now)
  local first = redis.call('ZRANGE', K_DELAYED, 0, 0, 'WITHSCORES')
  if #first == 0 then
    return -1
  end
  local wait = tonumber(first[2]) - now
  if wait < 0 then
    return 0
  end
  return wait
end
