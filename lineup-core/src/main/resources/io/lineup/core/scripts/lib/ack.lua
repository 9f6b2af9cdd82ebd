-- Acknowledges one leased job under its lease token; returns a code (codes.lua).
local function ack_one(id, token, result, now, s)
  local job = job_load(id)
  if not job then
    return C_NOT_FOUND
  end
  if job[F_STATE] ~= ST_LEASED or job[F_TOKEN] ~= token then
    return not_leased_code(job, token)
  end
  redis.call('ZREM', K_LEASED, id)
  job[F_RESULT] = result
  job[F_LINE] = 0
  finish(id, job, ST_DONE, now, s)
  note('acked', id)
  return C_OK
end

-- Acknowledges n acks given as ARGV triples (id, token, result) from ARGV[first]; returns their
-- codes in order. A freed concurrency slot wakes a waiting consumer.
local function ack_all(first, n, now, s)
  local codes = {}
  local acked = 0
  for i = 0, n - 1 do
    local base = first + i * 3
    local code = ack_one(ARGV[base], ARGV[base + 1], ARGV[base + 2], now, s)
    codes[#codes + 1] = code
    if code == C_OK then
      acked = acked + 1
    end
  end
  service_note(now, acked)
  if acked > 0 and s.concurrency > 0 then
    wake()
  end
  return codes
end
