-- floor_consume: the least Redis work a batched lease and ack can do (lineup-bench's
-- floor_consume_us), in the engine's shape (acks ride on the next lease call): the acked jobs leave
-- the leased set and their records go (ZREM, HDEL), then up to `count` jobs leave the front of the
-- line (ZPOPMIN), their records are read (HMGET) and they enter the leased set by deadline (ZADD).
-- No tokens, attempts, events, retries, retention or limits.
--
-- KEYS[1]      the line (sorted set: id by score)
-- KEYS[2]      the records (hash: id -> payload)
-- KEYS[3]      the leased set (sorted set: id by deadline)
-- ARGV[1]      count: most jobs to lease (0 = only acknowledge)
-- ARGV[2]      the leases' deadline (ms, text of a whole number)
-- ARGV[3..]    ids of the jobs acknowledged
-- Touches      the line, the records, the leased set
-- Returns      { id, payload, id, payload, ... } of the jobs leased
if #ARGV > 2 then
  redis.call('ZREM', KEYS[3], unpack(ARGV, 3))
  redis.call('HDEL', KEYS[2], unpack(ARGV, 3))
end
if ARGV[1] == '0' then
  return {}
end
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[1])
if #popped == 0 then
  return {}
end
local ids, leased = {}, {}
for i = 1, #popped, 2 do
  ids[#ids + 1] = popped[i]
  leased[#leased + 1] = ARGV[2]
  leased[#leased + 1] = popped[i]
end
local payloads = redis.call('HMGET', KEYS[2], unpack(ids))
redis.call('ZADD', KEYS[3], unpack(leased))
local reply = {}
for i = 1, #ids do
  reply[#reply + 1] = ids[i]
  reply[#reply + 1] = payloads[i]
end
return reply
