-- ack: acknowledges one leased job; its record (with the result) is kept for the retention window.
--
-- KEYS[1..11]  queue keys (lib/keys.lua)
-- ARGV[1]      now in ms ('' = Redis server time)
-- ARGV[2]      job id
-- ARGV[3]      lease token
-- ARGV[4]      result (bytes, '' = none)
-- Returns      { code } (codes.lua): 1 acked (also for a repeated ack of the same lease), -1 not found,
--              -2 lease expired, -3 lease lost, -4 cancelled, -5 expired, -6 acked under another lease
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/settings.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/finish.lua
--#include lib/service.lua
--#include lib/ack.lua

local now = clock_now(ARGV[1])
local s = settings_load()
local code = ack_one(ARGV[2], ARGV[3], ARGV[4], now, s)
if code == C_OK then
  service_note(now, 1)
  if s.concurrency > 0 then
    wake()
  end
end
events_flush(now)
return {code}
