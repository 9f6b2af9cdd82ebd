-- ack: acknowledges leased jobs; each record (with its result) is kept for the retention window.
-- The engine combines acks to one queue that arrive together into one call.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, leased, finished, ttl, meta, wake, events, outbox
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      number of acks n, then 3 values per ack: job id, lease token, result (bytes, '' = none)
-- Returns      { code... }: one code (codes.lua) per ack, in order: 1 acked (also for a repeated
--              ack of the same lease), or a negative code that says why the token no longer holds
--              the job
--#include lib/clock.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/ack.lua

local now = clock_now(ARGV[1])
local s = settings_load()
local codes = ack_all(3, tonumber(ARGV[2]), now, s)
events_flush(now)
return codes
