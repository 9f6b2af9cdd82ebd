-- fair_drop: deletes the waiting jobs (ready, delayed or parked) of one fairness key, a slice of the
-- line at a time: the line and the delayed set hold every key's jobs, so the caller walks them with
-- cursors until the call says it is done or the key has nothing left waiting.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, ttl, meta, events
--              and of its fairness keys (lib/fair.lua): the key's park and counts
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      the key
-- ARGV[3]      the line's cursor: rank to look from (0 at first)
-- ARGV[4]      the delayed set's cursor: rank to look from (0 at first)
-- ARGV[5]      limit: most jobs looked at in each of the two
-- Returns      { deleted, line_cursor, delayed_cursor, left }: jobs deleted by this call, the
--              cursors to pass next (-1: that one is walked), jobs of the key still waiting
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/fair.lua

local now = clock_now(ARGV[1])
local key = ARGV[2]
local limit = tonumber(ARGV[5])
local deleted = 0

-- Deletes the records of waiting jobs ids (all of key), already out of the set they stood in.
local function drop(ids)
  if #ids == 0 then
    return
  end
  redis.call('ZREM', K_TTL, unpack(ids))
  records_delete(ids)
  fair_keys_forget(ids)
  fair_count('waiting', {[key] = -#ids})
  note_all('purged', ids)
  deleted = deleted + #ids
end

local parked = redis.call('ZRANGE', fair_key_name('park:' .. key), 0, limit - 1)
if #parked > 0 then
  redis.call('ZREM', fair_key_name('park:' .. key), unpack(parked))
  drop(parked)
end

-- The key's jobs among ids (a slice of the line or of the delayed set).
local function mine_of(ids)
  local keys = fair_keys_of(ids)
  local mine = {}
  for j, id in ipairs(ids) do
    if keys[j] == key then
      mine[#mine + 1] = id
    end
  end
  return mine
end

-- The next cursor after a slice of `seen` jobs of which `gone` were deleted; -1 past the end.
local function next_cursor(cursor, seen, gone)
  if seen < limit then
    return -1
  end
  return cursor + seen - gone
end

local function waiting_left()
  return fair_count_of('waiting', key)
end
local line_cursor, delayed_cursor = tonumber(ARGV[3]), tonumber(ARGV[4])
if line_cursor >= 0 and waiting_left() > 0 then
  local ids = redis.call('ZRANGE', K_READY, line_cursor, line_cursor + limit - 1)
  local mine = mine_of(ids)
  if #mine > 0 then
    redis.call('ZREM', K_READY, unpack(mine))
    drop(mine)
  end
  line_cursor = next_cursor(line_cursor, #ids, #mine)
end
if delayed_cursor >= 0 and waiting_left() > 0 then
  local ids = redis.call('ZRANGE', K_DELAYED, delayed_cursor, delayed_cursor + limit - 1)
  local mine = mine_of(ids)
  if #mine > 0 then
    redis.call('ZREM', K_DELAYED, unpack(mine))
    drop(mine)
  end
  delayed_cursor = next_cursor(delayed_cursor, #ids, #mine)
end
local left = waiting_left()
if left == 0 then
  line_cursor, delayed_cursor = -1, -1
end
events_flush(now)
return {deleted, line_cursor, delayed_cursor, left}
