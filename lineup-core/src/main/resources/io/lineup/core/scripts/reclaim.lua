-- reclaim: background step; leases past their deadline go back to the line (attempts counted)
-- or, out of attempts, to dead letters.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, leased, dead, ttl, meta, wake, events, outbox
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      limit: most leases reclaimed per call
-- ARGV[3]      rand: a number in [0, 1) for backoff jitter
-- Returns      { handled }: how many leases were reclaimed
--#include lib/clock.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/retry.lua

local now = clock_now(ARGV[1])
local n = reclaim_expired(now, settings_load(), tonumber(ARGV[2]), tonumber(ARGV[3]))
events_flush(now)
return {n}
