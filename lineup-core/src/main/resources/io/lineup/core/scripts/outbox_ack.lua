-- outbox_ack: the archiver committed these outbox entries to its database; each is acknowledged
-- in the archiver's consumer group and deleted from the outbox in one step, so no entry is left
-- in the outbox once acknowledged (where it would take room and never be read again).
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: outbox
-- ARGV[1]      consumer group name
-- ARGV[2..]    outbox entry ids (at least one)
-- Returns      { handled }: how many entries were deleted
--#include lib/keys.lua

redis.call('XACK', K_OUTBOX, ARGV[1], unpack(ARGV, 2))
return {redis.call('XDEL', K_OUTBOX, unpack(ARGV, 2))}
