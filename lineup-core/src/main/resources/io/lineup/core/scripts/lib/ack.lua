-- Acknowledges n acks given as ARGV triples (id, lease token, result) from ARGV[first]; returns
-- their codes (codes.lua) in order. The jobs are read with one HMGET and written with one command
-- per key (per records hash, lib/job.lua), since each redis.call costs the script about a
-- microsecond beyond the command itself.
-- A freed concurrency slot wakes a waiting consumer.
--#include lib/keys.lua
--#include lib/codes.lua
--#include lib/clock.lua
--#include lib/job.lua
--#include lib/events.lua
--#include lib/line.lua
--#include lib/finish.lua
--#include lib/archive.lua
--#include lib/service.lua
--#include lib/fair.lua
local function ack_all(first, n, now, s)
  local codes = {}
  if n == 0 then
    return codes
  end
  local ids = {}
  for i = 0, n - 1 do
    ids[i + 1] = ARGV[first + i * 3]
  end
  -- A fair queue's acks come from many keys, so from many buckets in turn (lib/job.lua).
  local fair = s.fair == 1
  local raws
  local acked_groups -- a fair queue's: record_groups(ids, 1), made once for the reads and the writes
  if fair then
    acked_groups = record_groups(ids, 1)
    raws = records_get_spread(ids, false, acked_groups)
  else
    raws = records_get(ids)
  end
  local keep = retention_on(s)
  local now_text = int_text(now) -- the finished set's score, formatted once (lib/clock.lua)
  local acked_by = {}       -- id -> token, for a job acked earlier in this call
  local records = {}        -- HSET field/value pairs: the finished records
  local starts = {}         -- done_head_pack's shared starts of heads (lib/job.lua)
  local leased_heads = {}   -- token -> { start, attempts, started, error, a line follows }
  local finished = {}       -- ZADD score/member pairs for the finished set
  local unleased = {}
  local gone = {}           -- records deleted at once (no retention)
  local n_unleased, n_records = 0, 0 -- lengths of unleased, records and finished (# is a search)
  local archiving = s.archive_max > 0
  for i = 1, n do
    local id, token = ids[i], ARGV[first + (i - 1) * 3 + 1]
    local result = ARGV[first + (i - 1) * 3 + 2]
    local raw = raws[i]
    local code
    local acked = false
    local record -- the finished record of an acked job, when the queue keeps them
    if acked_by[id] then
      -- The same ack twice in one call (a retried request): answered as a repeat, counted once.
      code = acked_by[id] == token and C_OK or C_ALREADY_DONE
    elseif not raw then
      code = C_NOT_FOUND
    else
      -- A record as a lease writes it (lib/job.lua, split, its head counted) acked without a
      -- result, whose job has no error: the head is read into locals instead of a job's table,
      -- and the finished record made from the call's shared start (what job_decode_head,
      -- finished_record and done_head_pack give, without the table and their calls). Any other
      -- record, and any ack that is not answered OK, takes the general way below.
      local mark, h = str_byte(raw, 1, 2)
      if mark == SPLIT_MARK and h < 0x80 and result == '' then
        local body, attempts, started, err
        -- The records one lease call leased under one token begin with the same bytes up to their
        -- line score, or are the same bytes up to their body when the lease left the score out
        -- (lib/job.lua, leased_start and leased_head_unlined); those bytes name the token, the leased
        -- state and no error. Once one of them was unpacked, a record that begins with them is
        -- known to be leased under this token without unpacking its head: its body follows them, or
        -- follows the line score after them (a msgpack fixstr; another form of the line takes the
        -- way below).
        local known = leased_heads[token]
        if known and str_find(raw, known[1], 1, true) == 1 then
          local at = #known[1] + 1
          if not known[5] then
            body = str_sub(raw, at)
          else
            local line_header = str_byte(raw, at)
            if line_header >= 0xa0 and line_header <= 0xbf then
              body = str_sub(raw, at + 1 + line_header - 0xa0)
            end
          end
          if body then
            attempts, started, err = known[2], known[3], known[4]
          end
        end
        if not body then
          local body_at, _, state, held, line
          body_at, _, _, _, attempts, state, _, _, _, _, started, _, held, err, _, line = mp_unpack_limit(raw, h, 2)
          if state == ST_LEASED and held == token and (not err or err == 0 or err == '') then
            body = str_sub(raw, body_at + 1)
            -- Learnt from the first record of the token (one that reads as another form does not
            -- replace it).
            if not known and h == F_TOKEN then
              leased_heads[token] = {str_sub(raw, 1, body_at), attempts, started, err or 0, false}
            elseif not known and h == F_LINE and type(line) == 'string' and #line <= 31 then
              leased_heads[token] = {str_sub(raw, 1, body_at - 1 - #line), attempts, started, err or 0, true}
            end
          end
        end
        if body then
          acked = true
          if archiving then
            outbox_add_values(id, ST_DONE, attempts, started, now, err or 0, result, body, s)
          end
          if keep then
            -- done_head_pack's bytes; the start is looked up here, not asked of a function per job.
            record = (starts[token] or done_start(starts, token, attempts, started, now)) .. body
          end
        end
      end
      if not acked then
        -- Only the head: an ack changes no field of the body (lib/job.lua) and reads none; the
        -- archive's outbox entry takes the stored body as it is (lib/archive.lua).
        local job, body = job_decode_head(raw)
        if job[F_STATE] ~= ST_LEASED or job[F_TOKEN] ~= token then
          code = not_leased_code(job, token)
        else
          acked = true
          if archiving then
            outbox_add(id, job, ST_DONE, now, s, result, body)
          end
          if keep then
            -- What finish() does, with the writes gathered for the whole call.
            job[F_RESULT] = result
            job[F_LINE] = 0
            finished_record(job, ST_DONE, now)
            record = done_head_pack(job, body, starts)
          end
        end
      end
    end
    if acked then
      code = C_OK
      acked_by[id] = token
      n_unleased = n_unleased + 1
      unleased[n_unleased] = id
      if keep then
        records[n_records + 1], records[n_records + 2] = id, record
        finished[n_records + 1], finished[n_records + 2] = now_text, id
        n_records = n_records + 2
      else
        gone[#gone + 1] = id
      end
    end
    codes[i] = code
  end
  outbox_flush(s)
  note_all('acked', unleased)
  if #unleased > 0 then
    redis.call('ZREM', K_LEASED, unpack(unleased))
  end
  -- Whether a job had a TTL is in its body, which the ack does not read: while any job of the
  -- queue has one, every acked job leaves the TTL set (a no-op for those not in it).
  if #unleased > 0 and redis.call('ZCARD', K_TTL) > 0 then
    redis.call('ZREM', K_TTL, unpack(unleased))
  end
  -- A fair queue's acked ids are grouped by bucket once, for their records and their keys.
  -- With every ack answered OK (the common case), unleased is ids, whose groups the reads made.
  local fair_groups = fair and #unleased > 0 and (#unleased == n and acked_groups or record_groups(unleased, 1))
  if #records > 0 and fair then
    -- With the records kept, records holds a pair per id of unleased, in the same order.
    records_put_spread(records, fair_groups)
  elseif #records > 0 then
    records_put(records)
  end
  if #records > 0 then
    redis.call('ZADD', K_FINISHED, unpack(finished))
    finished_trim(s, #unleased)
  end
  if #gone > 0 then
    records_delete(gone)
  end
  if #unleased > 0 and fair then
    fair_settled(unleased, fair_groups)
  end
  service_note(now, #unleased)
  if #unleased > 0 and s.concurrency > 0 then
    wake()
  end
  return codes
end
