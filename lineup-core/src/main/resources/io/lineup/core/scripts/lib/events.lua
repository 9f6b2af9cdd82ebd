-- State changes of one script call, appended per kind as one entry of the capped event stream,
-- and counted in the meta hash (n_<kind>) for metrics. An entry names at most EVENT_IDS_MAX jobs
-- (a bulk publish says how many and the first and last id), so the stream stays small.
--#include lib/keys.lua
--#include lib/clock.lua
local EVENTS_MAX = '1000' -- as text, like every number events_flush passes (lib/clock.lua)
local EVENT_IDS_MAX = 100
local event_ids = {}
local event_kinds = {}

local function note(kind, id)
  local ids = event_ids[kind]
  if not ids then
    ids = {}
    event_ids[kind] = ids
    event_kinds[#event_kinds + 1] = kind
  end
  ids[#ids + 1] = id
end

-- note() for every id of a list, given whole: a call that changes the state of many jobs gathers
-- their ids in a list of its own instead of calling note() per job. The list becomes the kind's
-- when the call noted none of that kind yet, so it must not change afterwards.
local function note_all(kind, ids)
  if #ids == 0 then
    return
  end
  local noted = event_ids[kind]
  if not noted then
    event_ids[kind] = ids
    event_kinds[#event_kinds + 1] = kind
    return
  end
  for i = 1, #ids do
    noted[#noted + 1] = ids[i]
  end
end

local function events_flush(now)
  for _, kind in ipairs(event_kinds) do
    local ids = event_ids[kind]
    local count = count_text(#ids)
    if #ids <= EVENT_IDS_MAX then
      redis.call('XADD', K_EVENTS, 'MAXLEN', '~', EVENTS_MAX, '*', 'e', kind, 'n', count, 'ids', table.concat(ids, ','), 'at',
        int_text(now))
    else
      redis.call('XADD', K_EVENTS, 'MAXLEN', '~', EVENTS_MAX, '*', 'e', kind, 'n', count, 'first', ids[1], 'last', ids[#ids],
        'at', int_text(now))
    end
    redis.call('HINCRBY', K_META, 'n_' .. kind, count)
  end
end
