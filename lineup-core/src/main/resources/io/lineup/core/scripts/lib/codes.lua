-- Result codes, mirrored by ScriptCode.java (ScriptCodesTest holds the two together).
local C_OK = 1
local C_EXISTS = 2           -- publish: a job with this id or unique key exists already
local C_NOT_FOUND = -1       -- no record of this job
local C_LEASE_EXPIRED = -2   -- the token's lease ran out; the job waits again or is dead
local C_LEASED_AGAIN = -3    -- the token's lease ran out and the job was leased again since
local C_CANCELLED = -4       -- the job was cancelled
local C_EXPIRED = -5         -- the job's TTL passed
local C_ALREADY_DONE = -6    -- the job was acked (under this lease, for nack/extend; else another)
local C_NACKED = -7          -- the token's lease was nacked
local C_RELEASED = -8        -- the token's lease was released
local C_WRONG_TOKEN = -9     -- the token is not one of the job's last two leases
local C_CHANGED = -10        -- replace_record: the record holds another value than the one expected
