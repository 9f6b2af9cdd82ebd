-- Public state names, as JobState.java spells them.
--#include lib/keys.lua
--#include lib/job.lua
--#include lib/fair.lua
local function state_name(id, job)
  local st = job[F_STATE]
  if st == ST_WAITING then
    if redis.call('ZSCORE', K_READY, id) then
      return 'READY'
    end
    -- A ready job of a paused key waits in its key's park (lib/fair.lua).
    if fair_on() and redis.call('ZSCORE', fair_key_name('park:' .. fair_key_of(id)), id) then
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

-- Takes the job out of every line it may stand in, for good (in a fair queue, out of its key's
-- counts and park too).
local function unlink(id, job)
  redis.call('ZREM', K_READY, id)
  redis.call('ZREM', K_DELAYED, id)
  redis.call('ZREM', K_LEASED, id)
  redis.call('ZREM', K_DEAD, id)
  if fair_on() then
    local key = fair_key_of(id)
    if job[F_STATE] == ST_WAITING then
      redis.call('ZREM', fair_key_name('park:' .. key), id)
      fair_moved(key, 'waiting', nil)
    elseif job[F_STATE] == ST_LEASED then
      fair_unleased(key, nil)
    end
    fair_keys_forget({id})
  end
end

local function position_of(id)
  local rank = redis.call('ZRANK', K_READY, id)
  if rank then
    return rank
  end
  return -1
end
