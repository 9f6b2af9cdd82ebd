-- outbox_ack: the archiver committed these outbox entries to its database; each is acknowledged
-- in the archiver's consumer group and deleted from the outbox in one step, so no entry is left
-- in the outbox once acknowledged (where it would take room and never be read again). The jobs
-- of the entries this call deleted leave meta's outbox_jobs, the count the outbox bound is
-- checked against (lib/archive.lua).
--
-- The caller gives each entry's job count, from the entry it read, so the entries are not read
-- here: reading one made a Lua string of its packed jobs (kilobytes), which cost the archive
-- about as much Redis time as writing them. An entry deleted already (acknowledged by another
-- archiver that read it too) deletes nothing and takes nothing off the count. An entry of the
-- earliest form (one job, written before entries were counted) was never counted: taking its job
-- off makes the count low by one until the outbox next runs empty, where the count stops at 0.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: meta, outbox
-- ARGV[1]      consumer group name
-- ARGV[2..]    pairs: outbox entry id (each once), the number of jobs it holds (1 or more)
-- Returns      { handled }: how many jobs the entries this call deleted held
--#include lib/keys.lua

local ids = {}
for i = 2, #ARGV, 2 do
  ids[#ids + 1] = ARGV[i]
end
redis.call('XACK', K_OUTBOX, ARGV[1], unpack(ids))
local jobs = 0
for i = 2, #ARGV, 2 do
  if redis.call('XDEL', K_OUTBOX, ARGV[i]) == 1 then
    jobs = jobs + tonumber(ARGV[i + 1])
  end
end
if jobs > 0 then
  local left = redis.call('HINCRBY', K_META, 'outbox_jobs', -jobs)
  if left <= 0 then
    redis.call('HDEL', K_META, 'outbox_jobs')
  end
end
return {jobs}
