-- Measured service rate of the queue (acks per ms), an exponentially decaying average over
-- SERVICE_WINDOW_MS; ETA = position / rate.
--#include lib/keys.lua
local SERVICE_WINDOW_MS = 30000

local function service_rate(now)
  local v = redis.call('HMGET', K_META, 'svc_rate', 'svc_ts')
  local rate, ts = tonumber(v[1]) or 0, tonumber(v[2]) or now
  local dt = now - ts
  if dt < 0 then
    dt = 0
  end
  return rate * math.exp(-dt / SERVICE_WINDOW_MS)
end

local function service_note(now, n)
  if n > 0 then
    local rate = service_rate(now) + n / SERVICE_WINDOW_MS
    redis.call('HSET', K_META, 'svc_rate', string.format('%.17g', rate), 'svc_ts', now)
  end
end
