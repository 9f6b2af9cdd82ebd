-- Queue settings live in the meta hash; these are the defaults for a queue nobody configured.
-- QueueSetting.java defines the same names and defaults; QueueSettingDefinitionsTest checks that they agree.
--#include lib/keys.lua
local SETTING_NAMES = {'max_attempts', 'ttr_ms', 'backoff', 'backoff_ms', 'backoff_max_ms', 'backoff_jitter',
  'retention_ms', 'retention_max', 'rate', 'concurrency', 'paused', 'expected_service_ms', 'rate_period_ms',
  'rate_burst', 'durable_replicas', 'fair', 'key_concurrency', 'key_rate', 'key_rate_period_ms', 'key_max_waiting'}
local SETTING_DEFAULTS = {max_attempts = 3, ttr_ms = 30000, backoff = 'exponential', backoff_ms = 1000,
  backoff_max_ms = 300000, backoff_jitter = 0.2, retention_ms = 3600000, retention_max = 10000, rate = 0,
  concurrency = 0, paused = 0, expected_service_ms = 0, rate_period_ms = 1000, rate_burst = 0,
  durable_replicas = 0, fair = 0, key_concurrency = 0, key_rate = 0, key_rate_period_ms = 1000,
  key_max_waiting = 0}

-- archive_max is no queue setting: the server's archiver switches archiving on (lib/archive.lua).
-- Nor are adaptive_limit and adaptive_hold_until: an adaptive limit's state (lib/adaptive.lua),
-- which scripts move, not an operator. They are read in the same HMGET, first, so a queue without
-- archiving or an adaptive limit pays nothing more.
local SETTINGS_EXTRA = 3
local function settings_load()
  local values = redis.call('HMGET', K_META, 'archive_max', 'adaptive_limit', 'adaptive_hold_until',
    unpack(SETTING_NAMES))
  local s = {archive_max = tonumber(values[1]) or 0, adaptive_hold_until = tonumber(values[3]) or 0}
  for i, name in ipairs(SETTING_NAMES) do
    local v = values[i + SETTINGS_EXTRA]
    if not v then
      s[name] = SETTING_DEFAULTS[name]
    elseif name == 'backoff' then
      s[name] = v
    else
      s[name] = tonumber(v)
    end
  end
  -- An adaptive limit is the concurrency in force, under the fixed one (a ceiling) when that is
  -- set: the lease script, the ETA and the stats all see the limit the endpoint's answers chose.
  local adaptive = tonumber(values[2])
  if adaptive and adaptive > 0 and (s.concurrency <= 0 or adaptive < s.concurrency) then
    s.concurrency = adaptive
  end
  return s
end
