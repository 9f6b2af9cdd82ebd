-- The ready line's score ranges: one per priority class, each ARRIVAL_SPAN wide. A plain queue
-- scores a job (PRIORITY_MAX - priority) * ARRIVAL_SPAN + its arrival number; a fair queue puts its
-- fairness tag (lib/fair.lua) in place of the arrival number. Both terms stay below 2^53, so the
-- double score is exact.
local PRIORITY_MAX = 255
local ARRIVAL_SPAN = 17592186044416 -- 2^44 arrivals (or tag units) per priority class
