-- promote: background step; moves due delayed jobs to the ready line and wakes a consumer.
--
-- KEYS[1..12]  queue keys (lib/keys.lua)
-- Touches      of the queue keys: jobs, ready, delayed, meta, wake, events
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      limit: most jobs moved per call
-- Returns      { handled, next_due_in_ms }
--              handled: jobs promoted; next_due_in_ms: until the next delayed job is due (-1 none)
--#include lib/clock.lua
--#include lib/events.lua
--#include lib/line.lua

local now = clock_now(ARGV[1])
local moved = promote_due(now, tonumber(ARGV[2]))
events_flush(now)
return {moved, next_due_in(now)}
