-- The one clock: the caller's test clock in ms when given, else the Redis server clock,
-- which every engine instance shares whatever its host clock says.
-- A whole number of ms as text for redis.call. Redis 7.0 formats every number argument with
-- "%.17g" (about 0.5 µs each); a time shared by many members is formatted once and reused.
local function ms_text(ms)
  return string.format('%d', ms)
end

local function clock_now(arg)
  if arg ~= nil and arg ~= '' then
    return tonumber(arg)
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
