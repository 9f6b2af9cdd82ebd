// What the dashboard tells the user: the outcome of an action, in a toast fixed at the bottom of
// the window (in view wherever the user acted), and the state of the connection in a banner at the
// top (the server is away, or the page stopped reading).

import { fill } from '/ui/dom.js';

/** How long a good outcome stays shown, in ms; errors stay until the next outcome or page. */
export const NOTICE_MS = 6000;

const notice = document.getElementById('notice');
const banner = document.getElementById('banner');
let noticeTimer = null;

/** Shows an outcome: kind 'ok' (goes away by itself), 'error' or 'forbidden'. */
export function say(text, kind = 'ok') {
  clearTimeout(noticeTimer);
  notice.className = 'notice ' + kind;
  notice.dataset.kind = kind;
  fill(notice, text);
  notice.hidden = false;
  if (kind === 'ok') noticeTimer = setTimeout(() => (notice.hidden = true), NOTICE_MS);
}

/** Hides the outcome shown. */
export function quiet() {
  clearTimeout(noticeTimer);
  notice.hidden = true;
}

/** Shows the connection's state: kind 'away' (trying again) or 'stopped' (no more reads). */
export function warn(text, kind) {
  banner.className = 'banner ' + kind;
  banner.dataset.kind = kind;
  fill(banner, text);
  banner.hidden = false;
}

/** Hides the connection banner: the server answered. */
export function clearWarning() {
  banner.hidden = true;
  delete banner.dataset.kind;
}
