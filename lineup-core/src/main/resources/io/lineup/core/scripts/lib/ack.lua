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
