-- The one clock: the caller's test clock in ms when given, else the Redis server clock,
-- which every engine instance shares whatever its host clock says. Returns the time in whole ms,
-- and the microseconds the Redis clock was past that ms (0 with the test clock), for a wait that
-- should end at a due ms to the microsecond rather than up to a ms late.
local function clock_now(arg)
  if arg ~= nil and arg ~= '' then
    return tonumber(arg), 0
  end
  local t = redis.call('TIME')
  local us = tonumber(t[2])
  return tonumber(t[1]) * 1000 + math.floor(us / 1000), us % 1000
end

-- A whole number (a time in ms, a line score, an attempt) as text for redis.call. Redis 7.0 formats
-- every number argument with "%.17g" (about 0.5 µs each), plain integer formatting costs about half,
-- and a text shared by many jobs of a call is made once (text_once).
local function int_text(n)
  return string.format('%d', n)
end

-- int_text(n), kept in cache[key] so that a call makes each distinct text once.
local function text_once(cache, key, n)
  local text = cache[key]
  if not text then
    text = int_text(n)
    cache[key] = text
  end
  return text
end
