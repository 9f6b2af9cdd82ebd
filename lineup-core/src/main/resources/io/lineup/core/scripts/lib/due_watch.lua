-- The due watch: which of a queue's idle consumers waits for its next delayed job. Every idle
-- consumer used to wake at each due time and lease, and all but one found nothing: with two
-- consumers, each delayed job cost an empty lease and two more wake-ups of threads, on a machine
-- where a sleeping thread is now and then woken milliseconds late. Now one consumer, the watcher,
-- waits until the next due time and the others until DUE_WATCH_SLACK_MS after it. The watcher
-- renews the watch with every lease that leaves it waiting for a later job; one whose watch is more
-- than DUE_WATCH_SLACK_MS overdue (its process died or stalled) is replaced by the next consumer
-- that leases. A watcher whose call fills its slots, or that asks for no jobs (it is busy, or
-- closing), gives the watch up and wakes a consumer to take it. Jobs left in the line after a
-- lease wake the others as before, so the watch only decides who wakes for a due time.
--
-- Only consumers that name themselves (the engine's Worker) take part; a lease without a name gets
-- the plain wait until the next due job. The watch lives in two fields of the meta hash:
-- due_watcher (the consumer's name) and due_watch_ms (the due time it waits for, epoch ms).
--#include lib/keys.lua
--#include lib/clock.lua
--#include lib/line.lua
local DUE_WATCH_SLACK_MS = 200

-- The watcher gives the watch up and wakes another consumer to take it.
local function due_watch_hand_on()
  redis.call('HDEL', K_META, 'due_watcher', 'due_watch_ms')
  wake()
end

-- The wait of a consumer whose lease leaves it idle with a delayed job due in wait_ms (> 0):
-- wait_ms when it watches, or until the watcher is DUE_WATCH_SLACK_MS overdue when another watches
-- that job or an earlier one. full: the call filled the consumer's slots, so it cannot lease when
-- the job falls due and must not watch. Returns the wait in ms.
local function due_watch(consumer, now, wait_ms, full)
  local held = redis.call('HMGET', K_META, 'due_watcher', 'due_watch_ms')
  local watcher, watch_ms = held[1], tonumber(held[2])
  if full then
    if watcher == consumer then
      due_watch_hand_on()
    end
    return wait_ms
  end
  local due = now + wait_ms
  if watcher and watcher ~= consumer and watch_ms and watch_ms <= due
      and now <= watch_ms + DUE_WATCH_SLACK_MS then
    return math.max(1, watch_ms + DUE_WATCH_SLACK_MS - now)
  end
  redis.call('HSET', K_META, 'due_watcher', consumer, 'due_watch_ms', int_text(due))
  return wait_ms
end

-- A consumer that asks for no jobs gives up the watch, if it holds it, and wakes another to take it.
local function due_watch_resign(consumer)
  if redis.call('HGET', K_META, 'due_watcher') == consumer then
    due_watch_hand_on()
  end
end
