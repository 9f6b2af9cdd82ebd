-- depth-probe: measures, inside Redis, what a line's depth costs the lookups a consume makes, for
-- records kept in one hash per queue and for records kept in small hashes of consecutive ids.
-- An experiment for docs/benchmarks.md ("Where the time goes now"), not used by the engine: run
-- it with redis-cli against a scratch Redis, never one that holds data.
--
-- Ids are the engine's generated ones: '~' and the base-62 arrival number. Values are 130 bytes,
-- the size of a waiting job's record with a 100-byte payload.
--
-- KEYS[1]  a hash (flat records) or a key prefix (bucketed records: prefix .. id without its last
--          two characters, so 3,844 consecutive ids share a hash)
-- KEYS[2]  a sorted set holding the same ids by arrival (fill-flat, zpopmin)
-- ARGV[1]  mode: fill-flat | fill-buckets | hmget-flat | hmget-buckets | zpopmin | settle
-- ARGV[2]  n: ids 1..n are written (fill-*), read in batches of 256, a lease's size (hmget-*,
--          zpopmin), or the lookups of a missing member made in each of KEYS[1] and KEYS[2]
--          (settle: each lookup moves Redis's incremental rehash of a grown table on by a bucket)
-- Returns  fill-* and settle: n; the others: the microseconds the reads took, by Redis's TIME
local DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
local BATCH = 256
local mode = ARGV[1]
local n = tonumber(ARGV[2])

local function id_of(arrival)
  local text = ''
  repeat
    local digit = arrival % 62
    text = DIGITS:sub(digit + 1, digit + 1) .. text
    arrival = (arrival - digit) / 62
  until arrival == 0
  return '~' .. text
end

local function bucket_of(id)
  return KEYS[1] .. id:sub(1, math.max(1, #id - 2))
end

if mode == 'fill-flat' or mode == 'fill-buckets' then
  local record = string.rep('x', 130)
  for first = 1, n, 1000 do
    local fields, members = {}, {}
    for arrival = first, math.min(n, first + 999) do
      local id = id_of(arrival)
      if mode == 'fill-flat' then
        fields[#fields + 1] = id
        fields[#fields + 1] = record
        members[#members + 1] = arrival
        members[#members + 1] = id
      else
        redis.call('HSET', bucket_of(id), id, record)
      end
    end
    if #fields > 0 then
      redis.call('HSET', KEYS[1], unpack(fields))
      redis.call('ZADD', KEYS[2], unpack(members))
    end
  end
  return n
end

if mode == 'settle' then
  for _ = 1, n do
    redis.call('HEXISTS', KEYS[1], '')
    redis.call('ZSCORE', KEYS[2], '')
  end
  return n
end

local started = redis.call('TIME')
for first = 1, n, BATCH do
  if mode == 'zpopmin' then
    redis.call('ZPOPMIN', KEYS[2], BATCH)
  else
    local ids, buckets, order = {}, {}, {}
    for arrival = first, math.min(n, first + BATCH - 1) do
      local id = id_of(arrival)
      if mode == 'hmget-flat' then
        ids[#ids + 1] = id
      else
        local bucket = bucket_of(id)
        if not buckets[bucket] then
          buckets[bucket] = {}
          order[#order + 1] = bucket
        end
        table.insert(buckets[bucket], id)
      end
    end
    if mode == 'hmget-flat' then
      redis.call('HMGET', KEYS[1], unpack(ids))
    else
      for _, bucket in ipairs(order) do
        redis.call('HMGET', bucket, unpack(buckets[bucket]))
      end
    end
  end
end
local ended = redis.call('TIME')
return (ended[1] - started[1]) * 1000000 + (ended[2] - started[2])
