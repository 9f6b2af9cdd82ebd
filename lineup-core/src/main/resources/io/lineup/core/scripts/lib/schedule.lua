-- A schedule's state: one field of the queue's schedule state hash (named by the schedule), the
-- text 'rev version runs last anchor flag'. rev counts every change (upsert, pause, resume, fire),
-- so a writer that read the state can tell whether it still stands (compare-and-set); version
-- counts upserts; runs the jobs published; last the tick of the latest (epoch ms, -1 none); anchor
-- what an interval schedule counts its ticks from (epoch ms); flag 'a' active, 'p' paused, 'e'
-- ended. ScheduleStore.java reads and writes the same text. Revs come from one counter per queue,
-- the state hash's field SCHEDULE_REV_FIELD (no schedule name has a '~'), so a rev is never used
-- twice in a queue, not even by a schedule deleted and made again.
local SCHEDULE_REV_FIELD = '~rev'
local function schedule_state(text)
  if not text then
    return nil
  end
  local rev, version, runs, last, anchor, flag =
    string.match(text, '^(%d+) (%d+) (%d+) (%-?%d+) (%-?%d+) (%a)$')
  if not rev then
    return nil
  end
  return {rev = tonumber(rev), version = tonumber(version), runs = tonumber(runs), last = tonumber(last),
    anchor = tonumber(anchor), flag = flag}
end

local function schedule_state_text(s)
  return string.format('%d %d %d %d %d %s', s.rev, s.version, s.runs, s.last, s.anchor, s.flag)
end
