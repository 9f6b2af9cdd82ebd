// The one scheduler that reads the open view again: every POLL_MS while the server answers; while
// it does not (no answer, or 502/503/504), again after 2 s, 4 s, 8 s ... up to MAX_BACKOFF_MS; and
// never again once it answers 403 or 404 (the thing is not there or not this token's: asking again
// changes nothing).

import { ApiError } from '/ui/api.js';

/** How often an open view reads the server again, in ms. */
export const POLL_MS = 2000;

/** The longest wait between two tries while the server is away, in ms. */
export const MAX_BACKOFF_MS = 30_000;

/** Whether an error means the server (or Redis behind it) is away for now, worth trying again. */
export function away(error) {
  return error instanceof ApiError && [0, 502, 503, 504].includes(error.status);
}

/** Whether an error means the view's data will not come however often it is asked. */
export function final(error) {
  return error instanceof ApiError && (error.status === 403 || error.status === 404);
}

/** The wait before the next try after this many failures in a row, in ms. */
export function backoff(failures) {
  return Math.min(MAX_BACKOFF_MS, POLL_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * A scheduler for one view at a time. handlers: back() on the first good answer after failures,
 * away(error, waitMs) when the server did not answer, stop(error) on 403/404 (no more reads),
 * fail(error) on any other error (reads go on).
 */
export function poller(handlers) {
  let view = null;
  let timer = null;
  let failures = 0;
  let running = null; // the read in progress
  let again = false; // a read was asked for while one ran

  async function tick() {
    clearTimeout(timer);
    timer = null;
    const current = view;
    if (!current) return;
    let wait = POLL_MS;
    try {
      await current.refresh();
      if (current !== view) return;
      if (failures > 0) {
        failures = 0;
        handlers.back();
      }
    } catch (error) {
      if (current !== view) return;
      if (away(error)) {
        failures++;
        wait = backoff(failures);
        handlers.away(error, wait);
      } else if (final(error)) {
        view = null;
        handlers.stop(error);
        return;
      } else {
        handlers.fail(error);
      }
    }
    if (current === view && !again) timer = setTimeout(run, wait);
  }

  function run() {
    if (running) {
      again = true;
      return running;
    }
    running = tick().finally(() => {
      running = null;
      if (again && view) {
        again = false;
        run();
      }
      again = false;
    });
    return running;
  }

  return {
    /** Shows this view: reads it now, then on schedule. */
    start(next) {
      clearTimeout(timer);
      view = next;
      failures = 0;
      return run();
    },
    /** Stops reading. */
    stop() {
      clearTimeout(timer);
      view = null;
    },
    /** Reads the view now (after an action), then on schedule. */
    now() {
      return view ? run() : Promise.resolve();
    },
  };
}
