-- The one clock: the caller's test clock in ms when given, else the Redis server clock,
-- which every engine instance shares whatever its host clock says.
local function clock_now(arg)
  if arg ~= nil and arg ~= '' then
    return tonumber(arg)
  end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
