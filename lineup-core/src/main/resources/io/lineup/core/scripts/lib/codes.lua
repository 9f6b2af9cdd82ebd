-- Result codes, mirrored by ScriptCode.java.
local C_OK = 1
local C_EXISTS = 2
local C_NOT_FOUND = -1
local C_LEASE_EXPIRED = -2   -- the lease ran out; the job is waiting again or dead
local C_LEASE_LOST = -3      -- the job was leased again by someone else after this lease ran out
local C_CANCELLED = -4
local C_EXPIRED = -5
local C_ALREADY_DONE = -6
local C_NOT_DEAD = -7
