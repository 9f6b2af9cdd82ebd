-- layout-probe.lua: a consume whose lease state lives outside the job's record (measurement only,
-- not the engine's script). The question it answers: how far above the floor (floor_consume.lua)
-- would a lease and ack be if the lease wrote its token to a hash of its own instead of rewriting
-- the record, and the ack checked that token and moved the id to the finished set (retention kept
-- by membership, the record left as it is) instead of unpacking and rewriting the record? It keeps
-- what the engine's worker needs and the engine does once per call: the settings read, the scans
-- for expired leases and due delayed jobs, the nine reply values per job, an event entry and the
-- counters, the trim of finished records beyond 10,000.
--
-- KEYS[1..8]   the line (sorted set), the records (hash: id -> msgpack [payload, created]), the
--              leased set (sorted set: id by deadline), the lease tokens (hash: id -> token), the
--              finished set (sorted set: id by finish time), meta (hash), events (stream), the
--              delayed set (sorted set)
-- ARGV[1]      count: most jobs to lease (0 = only acknowledge)
-- ARGV[2]      the leases' deadline (ms, text of a whole number)
-- ARGV[3]      nonce: text that makes this call's tokens unique
-- ARGV[4]      now (ms, text of a whole number)
-- ARGV[5]      number of acks a, then 2 values per ack: id, lease token
-- Touches      all eight keys
-- Returns      { ack_codes, job... }: ack_codes a table of 0 (acked) or 1 (wrong token) per ack;
--              then 9 values per leased job: id, payload, priority, attempt, max_attempts,
--              deadline, token, created, due
local K_LINE, K_REC, K_LEASED, K_LEASES, K_FIN, K_META, K_EVENTS, K_DELAYED = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local count, deadline, nonce, now = tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local nacks = tonumber(ARGV[5])
-- settings, as the engine reads them once per call
local s = redis.call('HMGET', K_META, 'paused', 'concurrency', 'rate', 'ttr_ms', 'max_attempts', 'retention_ms', 'retention_max', 'archive_max')
local codes = {}
if nacks > 0 then
  local ids = {}
  for i = 1, nacks do ids[i] = ARGV[4 + 2 * i] end
  local toks = redis.call('HMGET', K_LEASES, unpack(ids))
  local ok, fin = {}, {}
  for i = 1, nacks do
    if toks[i] == ARGV[5 + 2 * i] then
      codes[i] = 0
      ok[#ok + 1] = ids[i]
      fin[#fin + 1] = now
      fin[#fin + 1] = ids[i]
    else
      codes[i] = 1
    end
  end
  if #ok > 0 then
    redis.call('HDEL', K_LEASES, unpack(ok))
    redis.call('ZREM', K_LEASED, unpack(ok))
    redis.call('ZADD', K_FIN, unpack(fin))
    local over = redis.call('ZCARD', K_FIN) - 10000
    if over > 0 then
      local last = math.min(over, 8 * #ok, 1000) - 1
      local oldest = redis.call('ZRANGE', K_FIN, 0, last)
      redis.call('HDEL', K_REC, unpack(oldest))
      redis.call('ZREMRANGEBYRANK', K_FIN, 0, last)
    end
    redis.call('XADD', K_EVENTS, 'MAXLEN', '~', 1000, '*', 'e', 'acked', 'n', #ok, 'first', ok[1], 'last', ok[#ok], 'at', now)
    redis.call('HINCRBY', K_META, 'n_acked', #ok)
    redis.call('HINCRBY', K_META, 'done:' .. math.floor(tonumber(now) / 1000), #ok)
  end
end
if count <= 0 then return {codes} end
redis.call('ZRANGEBYSCORE', K_LEASED, '-inf', now, 'LIMIT', 0, 100)
redis.call('ZRANGEBYSCORE', K_DELAYED, '-inf', now, 'LIMIT', 0, 1000)
local popped = redis.call('ZPOPMIN', K_LINE, count)
if #popped == 0 then return {codes} end
local ids = {}
for i = 1, #popped, 2 do ids[#ids + 1] = popped[i] end
local raws = redis.call('HMGET', K_REC, unpack(ids))
local out = {codes}
local leases, leased = {}, {}
local unpack_limit, byte = cmsgpack.unpack_limit, string.byte
for k, id in ipairs(ids) do
  local raw = raws[k]
  local n = byte(raw, 1) - 0x90
  local _, payload, created, priority, attempts = unpack_limit(raw, n, 1)
  local attempt = (attempts or 0) + 1
  local token = nonce .. '.' .. attempt
  leases[#leases + 1] = id
  leases[#leases + 1] = token
  leased[#leased + 1] = deadline
  leased[#leased + 1] = id
  local o = #out
  out[o + 1], out[o + 2], out[o + 3] = id, payload, priority or 0
  out[o + 4], out[o + 5], out[o + 6] = attempt, 3, deadline
  out[o + 7], out[o + 8], out[o + 9] = token, created, created
end
redis.call('HSET', K_LEASES, unpack(leases))
redis.call('ZADD', K_LEASED, unpack(leased))
redis.call('XADD', K_EVENTS, 'MAXLEN', '~', 1000, '*', 'e', 'leased', 'n', #ids, 'first', ids[1], 'last', ids[#ids], 'at', now)
redis.call('HINCRBY', K_META, 'n_leased', #ids)
return out
