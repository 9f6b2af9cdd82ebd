-- Jobs whose TTL passed before they finished leave every line; a tombstone says EXPIRED.
--#include lib/job.lua
--#include lib/events.lua
--#include lib/state.lua
--#include lib/finish.lua
local function expire_one(id, job, now, s)
  unlink(id, job)
  finish(id, job, ST_EXPIRED, now, s)
  note('expired', id)
end
