-- outbox_ack: the archiver committed these outbox entries to its database; each is acknowledged
-- in the archiver's consumer group and deleted from the outbox in one step, so no entry is left
-- in the outbox once acknowledged (where it would take room and never be read again). The jobs
-- the deleted entries held leave meta's outbox_jobs, the count the outbox bound is checked
-- against (lib/archive.lua).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta, outbox
-- ARGV[1]      consumer group name
-- ARGV[2..]    outbox entry ids (at least one, each once)
-- Returns      { handled }: how many jobs the deleted entries held
--#include lib/keys.lua

local jobs, uncounted = 0, 0
for i = 2, #ARGV do
  -- An entry already deleted reads as nothing; one written before entries held several jobs has
  -- no count and was never counted.
  local entry = redis.call('XRANGE', K_OUTBOX, ARGV[i], ARGV[i])[1]
  if entry then
    local fields, n = entry[2], nil
    for f = 1, #fields, 2 do
      if fields[f] == 'n' then
        n = tonumber(fields[f + 1])
        break
      end
    end
    if n then
      jobs = jobs + n
    else
      uncounted = uncounted + 1
    end
  end
end
redis.call('XACK', K_OUTBOX, ARGV[1], unpack(ARGV, 2))
redis.call('XDEL', K_OUTBOX, unpack(ARGV, 2))
if jobs > 0 then
  local left = redis.call('HINCRBY', K_META, 'outbox_jobs', -jobs)
  if left <= 0 then
    redis.call('HDEL', K_META, 'outbox_jobs')
  end
end
return {jobs + uncounted}
