// The Lineup dashboard: one page, views chosen by the location hash (#/queue/ns/name, ...), each
// built once and updated in place from the /v1 API by one scheduler (poll.js). Only actions the
// token may take are offered (GET /v1/me says which); the server checks every call again.

import { ApiError, call, get, token } from '/ui/api.js';
import { duration, fill, h } from '/ui/dom.js';
import { clearWarning, quiet, say, warn } from '/ui/notice.js';
import { poller } from '/ui/poll.js';
import { fail, link, session } from '/ui/parts.js';
import { overviewView } from '/ui/overview.js';
import { queueView } from '/ui/queue.js';
import { jobView } from '/ui/job.js';
import { endpointView, taskView } from '/ui/endpoint.js';
import { roomView } from '/ui/room.js';

const main = document.getElementById('main');
const crumbs = document.getElementById('crumbs');
const who = document.getElementById('who');
const logoutButton = document.getElementById('logout');

let view = null; // the open view: {refresh(), close()}

const polling = poller({
  back: () => clearWarning(),
  away: (error, waitMs) =>
    warn(error.describe() + ' Trying again in ' + duration(waitMs) + '; what is shown may be old.', 'away'),
  stop: (error) => {
    // The thing is not there, or not this token's: asking again changes nothing.
    clearWarning();
    closeView();
    fill(main, h('section', { class: 'card', id: 'stopped' },
      h('h1', null, error.status === 404 ? 'Not found' : 'Not allowed'),
      h('p', null, error.describe()),
      h('p', { class: 'muted' }, 'This page stopped reading the server. ', link('Back to the overview')),
    ));
    say(error.describe(), error.status === 403 ? 'forbidden' : 'error');
  },
  fail: (error) => fail(error),
});

session.refresh = () => polling.now();
session.unauthorized = (error) => {
  token.clear();
  session.me = null;
  showLogin(error.describe());
};

// ---- log in ----

function showLogin(message) {
  stopView();
  clearWarning();
  fill(crumbs);
  fill(who);
  logoutButton.hidden = true;
  const input = h('input', {
    id: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'lu_… or the admin token',
  });
  const error = h('p', { id: 'login-error', class: 'error-text', role: 'alert' }, message || '');
  const form = h(
    'form',
    { id: 'login', class: 'card login' },
    h('h1', null, 'Log in to Lineup'),
    h('p', { class: 'muted' }, 'The token is kept in this browser tab only, until it closes.'),
    h('label', { for: 'token' }, 'Token'),
    input,
    h('button', { type: 'submit', id: 'login-button' }, 'Log in'),
    error,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    if (!value) return;
    try {
      session.me = await call('GET', '/v1/me', undefined, value);
      token.set(value);
      input.value = '';
      startApp();
    } catch (e) {
      fill(error, e instanceof ApiError ? e.describe() : String(e));
    }
  });
  fill(main, form);
  input.focus();
}

logoutButton.addEventListener('click', () => {
  token.clear();
  session.me = null;
  quiet();
  showLogin('Logged out.');
});

async function boot() {
  if (!token.get()) {
    showLogin();
    return;
  }
  try {
    session.me = await get('/v1/me');
    startApp();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) token.clear();
    showLogin(e instanceof ApiError ? e.describe() : String(e));
  }
}

function startApp() {
  logoutButton.hidden = false;
  const me = session.me;
  const scopes = me.admin ? 'admin' : me.namespace + ' · ' + me.scopes.join(', ');
  fill(who, h('span', { id: 'who-text' }, scopes));
  route();
}

// ---- routing ----

window.addEventListener('hashchange', () => {
  if (session.me) route();
});

function parts() {
  return location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p.length > 0)
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch (e) {
        return p; // a malformed escape stays as typed; the server refuses the name if it is bad
      }
    });
}

function closeView() {
  if (view && view.close) view.close();
  view = null;
}

function stopView() {
  polling.stop();
  closeView();
}

function setCrumbs(...items) {
  fill(crumbs, link('Overview'), items.map((item) => [h('span', { class: 'sep' }, '/'), item]));
}

/** Each page: how many path parts it takes, its crumbs, and how it is made. */
const PAGES = {
  queue: [2, (ns, name) => [h('span', null, ns + '/' + name)], queueView],
  job: [3, (ns, name, id) => [link(ns + '/' + name, 'queue', ns, name), h('span', null, id)], jobView],
  endpoint: [2, (ns, name) => [h('span', null, 'endpoint ' + ns + '/' + name)], endpointView],
  task: [3, (ns, endpoint, id) => [link('endpoint ' + ns + '/' + endpoint, 'endpoint', ns, endpoint), h('span', null, id)], taskView],
  room: [2, (ns, name) => [h('span', null, 'room ' + ns + '/' + name)], roomView],
};

function route() {
  stopView();
  quiet();
  clearWarning();
  const [kind, ...rest] = parts();
  const page = PAGES[kind];
  if (page && rest.length >= page[0]) {
    const args = rest.slice(0, page[0]);
    setCrumbs(...page[1](...args));
    view = page[2](main, ...args);
  } else {
    setCrumbs();
    view = overviewView(main);
  }
  polling.start(view);
}

boot();
