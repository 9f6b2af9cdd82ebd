-- Queue keys, in the order every queue script receives them (KeySpace.java builds them).
-- All carry the queue's hash tag, so a queue lives in one Redis Cluster slot.
local K_JOBS, K_READY, K_DELAYED, K_LEASED = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local K_FINISHED, K_DEAD, K_TTL, K_META = KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local K_WAKE, K_EVENTS, K_RATE, K_OUTBOX = KEYS[9], KEYS[10], KEYS[11], KEYS[12]
