-- replace_record: replaces a record of a server collection (one hash) only when it
-- still holds what the caller read, so instances that change one shared record (a compare and
-- set) never lose each other's changes. Not a queue script: its one key is the collection.
--
-- KEYS[1]      the collection's hash
-- Touches      of the queue keys: none
-- ARGV[1]      record id
-- ARGV[2]      1 when the record is expected to hold ARGV[3], 0 when it is expected absent
-- ARGV[3]      the expected value (ignored when ARGV[2] is 0)
-- ARGV[4]      1 to store ARGV[5], 0 to delete the record
-- ARGV[5]      the new value (ignored when ARGV[4] is 0)
-- Returns      { code }
--              code: 1 replaced (or deleted), -10 the record held something else (nothing written)
--#include lib/codes.lua

local id = ARGV[1]
local current = redis.call('HGET', KEYS[1], id)
if ARGV[2] == '1' then
  if current ~= ARGV[3] then
    return {C_CHANGED}
  end
elseif current then
  return {C_CHANGED}
end
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[1], id, ARGV[5])
else
  redis.call('HDEL', KEYS[1], id)
end
return {C_OK}
