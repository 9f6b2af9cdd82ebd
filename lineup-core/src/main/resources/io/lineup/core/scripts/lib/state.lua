-- Public state names, as JobState.java spells them.
--#include lib/keys.lua
--#include lib/job.lua
local function state_name(id, job)
  local st = job[F_STATE]
  if st == ST_WAITING then
    if redis.call('ZSCORE', K_READY, id) then
      return 'READY'
    end
    return 'DELAYED'
  elseif st == ST_LEASED then
    return 'LEASED'
  elseif st == ST_DONE then
    return 'DONE'
  elseif st == ST_DEAD then
    return 'DEAD'
  elseif st == ST_CANCELLED then
    return 'CANCELLED'
  end
  return 'EXPIRED'
end

-- Takes the job out of every line it may stand in.
local function unlink(id)
  redis.call('ZREM', K_READY, id)
  redis.call('ZREM', K_DELAYED, id)
  redis.call('ZREM', K_LEASED, id)
  redis.call('ZREM', K_DEAD, id)
end

local function position_of(id)
  local rank = redis.call('ZRANK', K_READY, id)
  if rank then
    return rank
  end
  return -1
end
