// Pieces every page is built from, and what the pages share: the token's rights (GET /v1/me), how
// an action runs and says its outcome, links, badges, meters and text previews.

import { ApiError, seg } from '/ui/api.js';
import { fill, h, num } from '/ui/dom.js';
import { say } from '/ui/notice.js';

/** Longest payload or result text shown on a page; the download has every byte. */
export const PREVIEW_CHARS = 2000;

/** How long a confirmation button waits for its second press, in ms. */
export const CONFIRM_MS = 5000;

/**
 * The session: me is GET /v1/me of the token in use; refresh() reads the open view again;
 * unauthorized(error) goes back to the log-in form. app.js sets them.
 */
export const session = { me: null, refresh: async () => {}, unauthorized: () => {} };

/** Whether the token may do this ('manage', 'publish', 'cancel', ...). */
export function can(what) {
  const me = session.me;
  return Boolean(me && me.may && me.may[what]);
}

/** Whether the token may read dead letters, endpoints and rooms. */
export function canRead() {
  const me = session.me;
  return Boolean(me && (me.admin || can('manage') || me.scopes.includes('read')));
}

/** The queue names Lineup keeps for its own work (server.md, reserved queue names). */
export const RESERVED_PREFIXES = ['dispatch.', 'dispatch-', 'room.', 'lineup.'];

/** Whether a queue (its name without the namespace) is one Lineup uses itself. */
export function reserved(name) {
  return RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Shows an error for people; a refused token goes back to the log-in form. */
export function fail(error) {
  if (error instanceof ApiError) {
    if (error.status === 401) {
      session.unauthorized(error);
      return;
    }
    say(error.describe(), error.status === 403 ? 'forbidden' : 'error');
  } else {
    say('Something went wrong in the page: ' + String(error && error.message), 'error');
  }
}

/** Runs an action, shows its outcome, and reads the view again. */
export async function act(button, work, done) {
  if (button) button.disabled = true;
  try {
    const result = await work();
    if (done) say(typeof done === 'function' ? done(result) : done);
    await session.refresh();
  } catch (e) {
    fail(e);
  } finally {
    if (button) button.disabled = false;
  }
}

/**
 * A button that asks once before it acts: the first press shows confirmLabel() (say what and how
 * many), a second press within CONFIRM_MS acts.
 */
export function confirmButton(label, confirmLabel, onConfirm, props = {}) {
  let armed = false;
  let disarm = null;
  const button = h('button', { type: 'button', class: 'danger', ...props }, label);
  button.addEventListener('click', () => {
    if (!armed) {
      armed = true;
      fill(button, typeof confirmLabel === 'function' ? confirmLabel() : confirmLabel);
      button.dataset.armed = 'yes';
      disarm = setTimeout(() => {
        armed = false;
        delete button.dataset.armed;
        fill(button, label);
      }, CONFIRM_MS);
      return;
    }
    clearTimeout(disarm);
    armed = false;
    delete button.dataset.armed;
    fill(button, label);
    onConfirm(button);
  });
  return button;
}

export function link(text, ...path) {
  return h('a', { href: '#/' + path.map(seg).join('/') }, text);
}

export function section(title, ...children) {
  return h('section', { class: 'card' }, h('h2', null, title), ...children);
}

/** A list of label and value; key names each pair (data-field) for tests and styling. */
// Entries may be null (a row shown only sometimes): they are left out.
export function pairs(list, props = {}) {
  return h(
    'dl',
    { class: 'pairs', ...props },
    list.filter(Boolean).map(([k, v, key]) => h('div', { data: key ? { field: key } : undefined }, h('dt', null, k), h('dd', null, v))),
  );
}

export function stat(label, value, key) {
  return h('div', { class: 'stat', data: { stat: key } }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-label' }, label));
}

export function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || '') }, text);
}

export function breakerBadge(state) {
  const kind = state === 'closed' ? 'open' : state === 'open' ? 'danger' : 'paused';
  return badge('circuit ' + state, kind);
}

/** A bar of value against limit, named for screen readers by label. */
export function meter(value, limit, label) {
  if (!limit) return h('span', null, num(value), ' (no limit)');
  const share = Math.min(1, value / limit);
  const bar = h('span', { class: 'meter-fill' });
  bar.style.width = Math.round(share * 100) + '%'; // CSSOM: the policy forbids style attributes
  return h(
    'span',
    { class: 'meter-line' },
    h('span', {
      class: 'meter',
      attrs: { role: 'meter', 'aria-label': label, 'aria-valuenow': value, 'aria-valuemin': 0, 'aria-valuemax': limit },
    }, bar),
    ' ', num(value), ' of ', num(limit),
  );
}

/** Text of stored bytes as the API gave them: JSON shown compact (a string as is, quoted). */
export function shownText(value, base64) {
  if (base64 !== undefined && base64 !== null) return '(bytes, base64) ' + base64;
  if (value === undefined) return '';
  return typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2);
}

/** The text of stored bytes cut at PREVIEW_CHARS, saying how much more the download holds. */
export function preview(value, base64) {
  const text = shownText(value, base64);
  if (text.length > PREVIEW_CHARS) {
    return text.slice(0, PREVIEW_CHARS) + '… (' + num(text.length - PREVIEW_CHARS) + ' more characters; download for all)';
  }
  return text;
}

/**
 * A long text cut at chars with an ellipsis, and the whole text a press away (a details element,
 * closed until the user opens it; a refresh leaves it as the user left it).
 */
export function cut(text, chars, props = {}) {
  if (text.length <= chars) return h('span', props, text);
  return h(
    'details',
    { class: 'cut', ...props },
    h('summary', null, text.slice(0, chars) + '…', h('span', { class: 'more' }, ' show all ' + num(text.length) + ' characters')),
    h('pre', { class: 'whole' }, text),
  );
}
