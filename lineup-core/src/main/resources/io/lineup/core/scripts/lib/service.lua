-- Completions (acks and nacks) of the queue per second, the raw material of its ETAs, which the engine
-- computes from them (EtaEstimator.java). The meta hash holds one counter per second that saw a
-- completion, 'done:<epoch second>', for the last SERVICE_WINDOW_S seconds, and 'done_last', the
-- newest such second. Counting costs one HINCRBY per call, whatever the number of jobs it settles;
-- the first count of a second also deletes the counters that left the window, so at most
-- SERVICE_WINDOW_S of them exist.
--#include lib/keys.lua
--#include lib/clock.lua
local SERVICE_WINDOW_S = 60

-- Deletes the counters older than the window that ends at second `sec`. Every counter lies in the
-- window that ends at 'done_last' (this keeps it so), so at most SERVICE_WINDOW_S names are tried.
local function service_prune(sec)
  local last = tonumber(redis.call('HGET', K_META, 'done_last'))
  if not last then
    -- The first count of this queue: drop the decaying average that earlier versions kept.
    redis.call('HDEL', K_META, 'svc_rate', 'svc_ts')
    redis.call('HSET', K_META, 'done_last', sec)
    return
  end
  if sec <= last - SERVICE_WINDOW_S then
    -- A clock set back by more than the window: this second is out of the window already.
    redis.call('HDEL', K_META, 'done:' .. sec)
    return
  end
  local old = {}
  for s = last - SERVICE_WINDOW_S + 1, math.min(last, sec - SERVICE_WINDOW_S) do
    old[#old + 1] = 'done:' .. s
  end
  if #old > 0 then
    redis.call('HDEL', K_META, unpack(old))
  end
  if sec > last then
    redis.call('HSET', K_META, 'done_last', sec)
  end
end

-- Counts n completions at now (ms).
local function service_note(now, n)
  if n > 0 then
    local sec = math.floor(now / 1000)
    -- HINCRBY answers n only when it made the counter: the first count of this second.
    if redis.call('HINCRBY', K_META, 'done:' .. sec, n) == n then
      service_prune(sec)
    end
  end
end

-- The completions of the last SERVICE_WINDOW_S seconds at now (ms), oldest first; the last is the
-- current second, still running. Seconds before the first that saw a completion are left out.
local function service_counts(now)
  local sec = math.floor(now / 1000)
  local names = {}
  for s = sec - SERVICE_WINDOW_S + 1, sec do
    names[#names + 1] = 'done:' .. s
  end
  local values = redis.call('HMGET', K_META, unpack(names))
  local counts = {}
  for i = 1, #values do
    local n = tonumber(values[i])
    if n or #counts > 0 then
      counts[#counts + 1] = n or 0
    end
  end
  return counts
end

-- The rate limit's window at now (ms), when the queue has a rate limit: { leases, oldest_ago_ms,
-- newest_ago_ms }, the leases of the last second (the lease script's log, lease.lua) and how long
-- ago the oldest and the newest of them were made; {0, 0, 0} without a limit or a lease. Three
-- O(log n) reads, whatever the limit.
local function service_rate_window(now, limit)
  if limit <= 0 then
    return {0, 0, 0}
  end
  local after = '(' .. int_text(now - 1000)
  local leases = redis.call('ZCOUNT', K_RATE, after, '+inf')
  if leases == 0 then
    return {0, 0, 0}
  end
  local oldest = redis.call('ZRANGEBYSCORE', K_RATE, after, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  local newest = redis.call('ZRANGE', K_RATE, -1, -1, 'WITHSCORES')
  return {leases, math.max(0, now - tonumber(oldest[2])), math.max(0, now - tonumber(newest[2]))}
end
