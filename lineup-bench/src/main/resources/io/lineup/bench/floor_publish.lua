-- floor_publish: the least Redis work a batched publish can do (lineup-bench's floor_publish_us):
-- one sorted-set member and one hash field per job, no events, options, counters or limits.
--
-- KEYS[1]      the line (sorted set: id by score)
-- KEYS[2]      the records (hash: id -> payload)
-- ARGV         3 values per job: score (text of a whole number), id, payload (bytes)
-- Touches      the line, the records
-- Returns      jobs added
local line, records = {}, {}
for i = 1, #ARGV, 3 do
  line[#line + 1] = ARGV[i]
  line[#line + 1] = ARGV[i + 1]
  records[#records + 1] = ARGV[i + 1]
  records[#records + 1] = ARGV[i + 2]
end
redis.call('ZADD', KEYS[1], unpack(line))
redis.call('HSET', KEYS[2], unpack(records))
return #line / 2
