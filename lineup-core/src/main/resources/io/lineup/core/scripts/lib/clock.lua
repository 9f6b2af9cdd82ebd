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

-- The texts of 0 to 99 by value + 1 (count_text).
local SMALL_TEXTS = {
  '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15', '16', '17', '18',
  '19', '20', '21', '22', '23', '24', '25', '26', '27', '28', '29', '30', '31', '32', '33', '34', '35', '36',
  '37', '38', '39', '40', '41', '42', '43', '44', '45', '46', '47', '48', '49', '50', '51', '52', '53', '54',
  '55', '56', '57', '58', '59', '60', '61', '62', '63', '64', '65', '66', '67', '68', '69', '70', '71', '72',
  '73', '74', '75', '76', '77', '78', '79', '80', '81', '82', '83', '84', '85', '86', '87', '88', '89', '90',
  '91', '92', '93', '94', '95', '96', '97', '98', '99'
}

-- A count (a whole number >= 0) as text for redis.call: looked up below 100, else int_text. The
-- counts a call passes (the jobs of an event, the arrivals it reserves) are mostly small, and each
-- number formatted cost a call about 1 % of a single publish (drain-instructions, calls of one job).
local function count_text(n)
  return SMALL_TEXTS[n + 1] or int_text(n)
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
