// The Lineup dashboard: one page, views chosen by the location hash (#/queue/ns/name, ...), data
// read from the /v1 API every POLL_MS while a view is open. Only actions the token may take are
// offered (GET /v1/me says which); the server checks every call again.

import uPlot from '/ui/vendor/uPlot.esm.js';
import { ApiError, call, del, get, patch, post, seg, token } from '/ui/api.js';
import { ago, duration, eta, fill, h, num, time } from '/ui/dom.js';

/** How often an open view reads the server again, in ms. */
const POLL_MS = 2000;

/** Longest payload or result text shown on a page; the download has every byte. */
const PREVIEW_CHARS = 2000;

const main = document.getElementById('main');
const notice = document.getElementById('notice');
const crumbs = document.getElementById('crumbs');
const who = document.getElementById('who');
const logoutButton = document.getElementById('logout');

let me = null; // GET /v1/me of the token in use
let view = null; // the open view: {refresh(), close()}
let timer = null;
let noticeTimer = null;

// ---- messages ----

function say(text, kind = 'ok') {
  clearTimeout(noticeTimer);
  notice.className = 'notice ' + kind;
  notice.dataset.kind = kind;
  fill(notice, text);
  notice.hidden = false;
  if (kind === 'ok') noticeTimer = setTimeout(() => (notice.hidden = true), 6000);
}

function fail(error) {
  if (error instanceof ApiError) {
    if (error.status === 401) {
      token.clear();
      me = null;
      showLogin(error.describe());
      return;
    }
    say(error.describe(), error.status === 403 ? 'forbidden' : 'error');
  } else {
    say('Something went wrong in the page: ' + String(error && error.message), 'error');
  }
}

/** Runs an action, shows its outcome, and reads the view again. */
async function act(button, work, done) {
  if (button) button.disabled = true;
  try {
    const result = await work();
    if (done) say(typeof done === 'function' ? done(result) : done);
    await refreshNow();
  } catch (e) {
    fail(e);
  } finally {
    if (button) button.disabled = false;
  }
}

/** A button that asks to be pressed a second time within 5 s before it acts. */
function confirmButton(label, confirmLabel, onConfirm, props = {}) {
  let armed = false;
  let disarm = null;
  const button = h('button', { type: 'button', class: 'danger', ...props }, label);
  button.addEventListener('click', () => {
    if (!armed) {
      armed = true;
      fill(button, confirmLabel);
      disarm = setTimeout(() => {
        armed = false;
        fill(button, label);
      }, 5000);
      return;
    }
    clearTimeout(disarm);
    armed = false;
    fill(button, label);
    onConfirm(button);
  });
  return button;
}

// ---- log in ----

function showLogin(message) {
  stopView();
  fill(crumbs);
  fill(who);
  logoutButton.hidden = true;
  const input = h('input', {
    id: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'lu_… or the admin token',
    attrs: { 'aria-label': 'Token' },
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
      me = await call('GET', '/v1/me', undefined, value);
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
  me = null;
  notice.hidden = true;
  showLogin('Logged out.');
});

async function boot() {
  if (!token.get()) {
    showLogin();
    return;
  }
  try {
    me = await get('/v1/me');
    startApp();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      token.clear();
      showLogin(e.describe());
    } else {
      showLogin(e instanceof ApiError ? e.describe() : String(e));
    }
  }
}

function startApp() {
  logoutButton.hidden = false;
  const scopes = me.admin ? 'admin' : me.namespace + ' · ' + me.scopes.join(', ');
  fill(who, h('span', { id: 'who-text' }, scopes));
  route();
}

// ---- routing ----

window.addEventListener('hashchange', () => {
  if (me) route();
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

function link(text, ...path) {
  return h('a', { href: '#/' + path.map(seg).join('/') }, text);
}

function stopView() {
  clearInterval(timer);
  timer = null;
  if (view && view.close) view.close();
  view = null;
}

function route() {
  stopView();
  notice.hidden = true;
  const [kind, ...rest] = parts();
  const views = {
    queue: queueView,
    job: jobView,
    endpoint: endpointView,
    task: taskView,
    room: roomView,
  };
  const make = views[kind];
  if (make && rest.length >= 2) {
    view = make(...rest);
  } else {
    view = overviewView();
  }
  refreshNow();
  timer = setInterval(refreshNow, POLL_MS);
}

let refreshing = false;
async function refreshNow() {
  if (!view || refreshing) return;
  refreshing = true;
  const current = view;
  try {
    await current.refresh();
    if (current === view && notice.dataset.kind === 'stale') notice.hidden = true;
  } catch (e) {
    if (current === view) fail(e);
  } finally {
    refreshing = false;
  }
}

function setCrumbs(...items) {
  fill(crumbs, link('Overview'), items.map((item) => [h('span', { class: 'sep' }, '/'), item]));
}

// ---- small pieces ----

function section(title, ...children) {
  return h('section', { class: 'card' }, h('h2', null, title), ...children);
}

// Entries may be null (a row shown only sometimes): they are left out.
function pairs(list, props = {}) {
  return h(
    'dl',
    { class: 'pairs', ...props },
    list.filter(Boolean).map(([k, v, key]) => h('div', { data: key ? { field: key } : undefined }, h('dt', null, k), h('dd', null, v))),
  );
}

function stat(label, value, key) {
  return h('div', { class: 'stat', data: { stat: key } }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-label' }, label));
}

function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || '') }, text);
}

function meter(value, limit) {
  if (!limit) return h('span', null, num(value), ' (no limit)');
  const share = Math.min(1, value / limit);
  const bar = h('span', { class: 'meter-fill' });
  bar.style.width = Math.round(share * 100) + '%'; // CSSOM: the policy forbids style attributes
  return h(
    'span',
    { class: 'meter-line' },
    h('span', { class: 'meter', attrs: { role: 'meter', 'aria-valuenow': value, 'aria-valuemin': 0, 'aria-valuemax': limit } }, bar),
    ' ', num(value), ' of ', num(limit),
  );
}

/** Text of stored bytes as the API gave them: JSON shown compact, cut at PREVIEW_CHARS. */
function preview(value, base64) {
  let text;
  if (base64 !== undefined && base64 !== null) {
    text = '(bytes, base64) ' + base64;
  } else if (value === undefined) {
    text = '';
  } else {
    text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value, null, 2);
  }
  if (text.length > PREVIEW_CHARS) {
    return text.slice(0, PREVIEW_CHARS) + '… (' + num(text.length - PREVIEW_CHARS) + ' more characters; download for all)';
  }
  return text;
}

function can(what) {
  return Boolean(me && me.may && me.may[what]);
}

// ---- charts ----

function cssColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

/** A uPlot time chart that follows its box's width. series: [{label, color}]. */
function chart(box, title, series) {
  let plot = null;
  let data = [[]].concat(series.map(() => []));
  const make = () => {
    const axisColor = cssColor('--muted');
    const gridColor = cssColor('--grid');
    const axis = { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } };
    const options = {
      title,
      width: Math.max(240, box.clientWidth - 8),
      height: 200,
      scales: { x: { time: true } },
      axes: [{ ...axis }, { ...axis, size: 50 }],
      series: [{}].concat(series.map((s) => ({ label: s.label, stroke: cssColor(s.color), width: 2 }))),
      legend: { live: false },
    };
    if (plot) plot.destroy();
    plot = new uPlot(options, data, box);
  };
  const resize = new ResizeObserver(() => {
    if (plot) plot.setSize({ width: Math.max(240, box.clientWidth - 8), height: 200 });
  });
  resize.observe(box);
  const theme = window.matchMedia('(prefers-color-scheme: dark)');
  const rethemed = () => make();
  theme.addEventListener('change', rethemed);
  make();
  return {
    set(next) {
      data = next;
      plot.setData(next);
    },
    close() {
      resize.disconnect();
      theme.removeEventListener('change', rethemed);
      if (plot) plot.destroy();
    },
  };
}

// ---- overview ----

function overviewView() {
  setCrumbs();
  const queues = h('tbody', { id: 'queues-body' });
  const endpoints = h('tbody', { id: 'endpoints-body' });
  const rooms = h('tbody', { id: 'rooms-body' });
  const readAt = h('span', { class: 'muted', id: 'read-at' });
  const truncated = h('p', { class: 'muted', hidden: true }, 'Only the first 1,000 queues are shown.');
  const mayManage = can('manage') || (me && me.scopes.includes('read'));
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Overview'), readAt),
    section(
      'Queues',
      h('div', { class: 'table-wrap' }, h('table', { id: 'queues' },
        h('thead', null, h('tr', null, ['Queue', 'Ready', 'Delayed', 'Leased', 'Dead', 'Published/s', 'Completed/s', 'Failed/s', 'Lateness p99', 'State'].map((t) => h('th', { scope: 'col' }, t)))),
        queues)),
      truncated,
    ),
    section(
      'Endpoints',
      mayManage ? null : h('p', { class: 'muted' }, 'Endpoints need a token with the manage or read scope.'),
      h('div', { class: 'table-wrap' }, h('table', { id: 'endpoints' },
        h('thead', null, h('tr', null, ['Endpoint', 'Circuit', 'In flight', 'Queued', 'Rate', 'Served/s'].map((t) => h('th', { scope: 'col' }, t)))),
        endpoints)),
    ),
    section(
      'Rooms',
      mayManage ? null : h('p', { class: 'muted' }, 'Rooms need a token with the manage or read scope.'),
      h('div', { class: 'table-wrap' }, h('table', { id: 'rooms' },
        h('thead', null, h('tr', null, ['Room', 'In line', 'Active', 'Admit per minute', 'Method', 'State'].map((t) => h('th', { scope: 'col' }, t)))),
        rooms)),
    ),
  );
  return {
    async refresh() {
      const o = await get('/v1/overview');
      fill(readAt, 'updated ' + new Date(o.read_at).toLocaleTimeString());
      truncated.hidden = !o.truncated;
      const rows = o.queues.filter((q) => q.kind === 'queue');
      fill(
        queues,
        rows.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 10 }, class: 'muted' }, 'No queues yet.')) : null,
        rows.map((q) =>
          h('tr', { data: { queue: q.queue } },
            h('td', { data: { col: 'name' } }, link(q.queue, 'queue', q.namespace, q.name)),
            h('td', { data: { col: 'ready' } }, num(q.counts.ready)),
            h('td', { data: { col: 'delayed' } }, num(q.counts.delayed)),
            h('td', { data: { col: 'leased' } }, num(q.counts.leased)),
            h('td', { data: { col: 'dead' }, class: q.counts.dead > 0 ? 'warn' : '' }, num(q.counts.dead)),
            h('td', { data: { col: 'published' } }, q.rates ? num(q.rates.published_per_s) : '–'),
            h('td', { data: { col: 'completed' } }, q.rates ? num(q.rates.completed_per_s) : '–'),
            h('td', { data: { col: 'failed' } }, q.rates ? num(q.rates.failed_per_s) : '–'),
            h('td', { data: { col: 'lateness' }, title: 'jobs leased through this server instance since it started' }, duration(q.lateness_p99_ms)),
            h('td', { data: { col: 'state' } }, q.paused ? badge('paused', 'paused') : badge('open', 'open')),
          ),
        ),
      );
      fill(
        endpoints,
        o.endpoints.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No endpoints.')) : null,
        o.endpoints.map((e) =>
          h('tr', { data: { endpoint: e.namespace + '/' + e.endpoint } },
            h('td', null, link(e.namespace + '/' + e.endpoint, 'endpoint', e.namespace, e.endpoint)),
            h('td', null, breakerBadge(e.circuit_breaker_state.state)),
            h('td', null, num(e.tasks.running), ' of ', e.concurrency ? num(e.concurrency) : 'no limit'),
            h('td', null, num(e.tasks.queued)),
            h('td', null, e.rate ? num(e.rate) + ' per ' + duration(e.period_ms) : 'no limit'),
            h('td', null, num(e.service_rate)),
          ),
        ),
      );
      fill(
        rooms,
        o.rooms.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No rooms.')) : null,
        o.rooms.map((r) =>
          h('tr', { data: { room: r.namespace + '/' + r.room } },
            h('td', null, link(r.namespace + '/' + r.room, 'room', r.namespace, r.room)),
            h('td', null, num(r.waiting)),
            h('td', null, num(r.active), ' of ', num(r.max_active)),
            h('td', null, num(r.admit_per_minute)),
            h('td', null, r.queueing_method),
            h('td', null, r.suspended ? badge('suspended', 'paused') : badge('admitting', 'open')),
          ),
        ),
      );
    },
  };
}

function breakerBadge(state) {
  const kind = state === 'closed' ? 'open' : state === 'open' ? 'danger' : 'paused';
  return badge('circuit ' + state, kind);
}

// ---- a queue ----

function queueView(ns, name) {
  const q = '/v1/queues/' + seg(ns) + '/' + seg(name);
  setCrumbs(h('span', null, ns + '/' + name));
  const stateBadge = h('span', { id: 'queue-state' });
  const actions = h('span', { class: 'actions', id: 'queue-actions' });
  const stats = h('div', { class: 'stats', id: 'queue-stats' });
  const depthBox = h('div', { class: 'chart', id: 'depth-chart' });
  const rateBox = h('div', { class: 'chart', id: 'rate-chart' });
  const etaLine = h('p', { class: 'muted', id: 'eta-check' });
  const lineBody = h('tbody', { id: 'line-body' });
  const deadBody = h('tbody', { id: 'dead-body' });
  const deadTotal = h('span', { class: 'muted', id: 'dead-total' });
  const deadActions = h('div', { class: 'actions' });
  const settingsBox = h('div', { id: 'settings' });
  const schedulesPart = schedulesSection(q, (text, id) => link(text, 'job', ns, name, id));
  const keysPart = keysSection(q);
  const findInput = h('input', { id: 'find-id', placeholder: 'job id', autocomplete: 'off', attrs: { 'aria-label': 'Job id' } });
  const findForm = h('form', { class: 'inline', id: 'find-job' }, findInput, h('button', { type: 'submit' }, 'Open job'));
  findForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = findInput.value.trim();
    if (id) location.hash = '#/job/' + [ns, name, id].map(seg).join('/');
  });

  let paused = false;
  const pauseButton = h('button', { type: 'button', id: 'pause' }, 'Pause');
  pauseButton.addEventListener('click', () =>
    act(pauseButton, () => patch(q, { paused: !paused }), () => (paused ? 'Resumed.' : 'Paused: leases return nothing until resumed.')),
  );
  if (can('manage')) {
    fill(actions, pauseButton);
    fill(
      deadActions,
      h('button', { type: 'button', id: 'respawn-all', on: { click: (e) => act(e.currentTarget, () => post(q + '/dead/respawn', { all: true }), (r) => 'Respawned ' + r.respawned + ' jobs.') } }, 'Respawn all'),
      confirmButton('Purge all', 'Press again to purge', (button) => act(button, () => del(q + '/dead'), (r) => 'Purged ' + r.purged + ' dead letters.'), { id: 'purge' }),
    );
  }

  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', { id: 'queue-name' }, ns + '/' + name), stateBadge, actions),
    stats,
    section('Last 15 minutes', h('div', { class: 'charts' }, depthBox, rateBox), etaLine),
    section('Next in line', h('div', { class: 'table-wrap' }, h('table', { id: 'line' },
      h('thead', null, h('tr', null, ['Position', 'Job', 'Priority', 'Attempts', 'Waiting', 'ETA'].map((t) => h('th', { scope: 'col' }, t)))), lineBody)), findForm),
    keysPart.section,
    section('Dead letters', deadTotal, h('div', { class: 'table-wrap' }, h('table', { id: 'dead' },
      h('thead', null, h('tr', null, ['Job', 'Attempts', 'Died', 'Last error', 'Payload', ''].map((t) => h('th', { scope: 'col' }, t)))), deadBody)), deadActions),
    schedulesPart.section,
    section('Limits and settings', settingsBox),
  );

  const depth = chart(depthBox, 'Jobs by state', [
    { label: 'ready', color: '--c1' },
    { label: 'delayed', color: '--c2' },
    { label: 'leased', color: '--c3' },
    { label: 'dead', color: '--c4' },
  ]);
  const rates = chart(rateBox, 'Per second', [
    { label: 'published', color: '--c1' },
    { label: 'completed', color: '--c3' },
    { label: 'failed', color: '--c4' },
  ]);
  let settingsShown = null;
  let tick = 0;
  let samplesShown = 0;

  return {
    close() {
      depth.close();
      rates.close();
    },
    async refresh() {
      // The history changes every 5 s; read it every third time, or every time while it is short.
      const withHistory = tick++ % 3 === 0 || samplesShown < 2;
      const canSeeDead = can('manage') || me.scopes.includes('read') || me.admin;
      const [s, line, keys, dead, history, schedules] = await Promise.all([
        get(q),
        get(q + '/line?count=20'),
        get(q + '/fairness?limit=' + KEYS_SHOWN),
        canSeeDead ? get(q + '/dead?count=50') : Promise.resolve(null),
        withHistory ? get(q + '/history') : Promise.resolve(null),
        // Lineup's own queues (an endpoint's, a room's) refuse the schedule routes.
        get(q + '/schedules').catch(() => null),
      ]);
      paused = Boolean(s.settings.paused);
      fill(stateBadge, paused ? badge('paused', 'paused') : badge('open', 'open'));
      fill(pauseButton, paused ? 'Resume' : 'Pause');
      fill(
        stats,
        stat('ready', num(s.counts.ready), 'ready'),
        stat('delayed', num(s.counts.delayed), 'delayed'),
        stat('leased', num(s.counts.leased), 'leased'),
        stat('dead', num(s.counts.dead), 'dead'),
        stat('finished, kept', num(s.counts.finished), 'finished'),
        stat('served per second', num(s.service_rate), 'rate'),
        stat('last in line served in', s.drain_eta_ms === null ? '–' : duration(s.drain_eta_ms), 'drain'),
      );
      fill(
        lineBody,
        line.jobs.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'Nobody in line.')) : null,
        line.jobs.map((j) =>
          h('tr', { data: { job: j.id } },
            h('td', null, num(j.position)),
            h('td', null, link(j.id, 'job', ns, name, j.id)),
            h('td', null, num(j.priority)),
            h('td', null, num(j.attempts)),
            h('td', null, ago(j.created_at)),
            h('td', null, paused ? 'paused' : eta(j.eta_ms, j.eta_low_ms, j.eta_high_ms)),
          ),
        ),
      );
      if (dead) {
        fill(deadTotal, num(dead.total) + ' dead' + (dead.total > dead.jobs.length ? ' (the oldest ' + dead.jobs.length + ' shown)' : ''));
        fill(
          deadBody,
          dead.jobs.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No dead letters.')) : null,
          dead.jobs.map((d) =>
            h('tr', { data: { dead: d.id } },
              h('td', null, link(d.id, 'job', ns, name, d.id)),
              h('td', null, num(d.attempts)),
              h('td', null, ago(d.died_at)),
              h('td', { class: 'text-cell', data: { col: 'error' } }, d.last_error || ''),
              h('td', { class: 'text-cell', data: { col: 'payload' } }, preview(d.payload, d.payload_base64).slice(0, 120)),
              h('td', null, can('manage')
                ? h('button', { type: 'button', class: 'small', data: { respawn: d.id }, on: { click: (e) => act(e.currentTarget, () => post(q + '/dead/respawn', { ids: [d.id] }), 'Respawned ' + d.id + '.') } }, 'Respawn')
                : null),
            ),
          ),
        );
      } else {
        fill(deadTotal, 'Dead letters need a token with the manage or read scope.');
      }
      keysPart.show(keys);
      await schedulesPart.show(schedules);
      const settingsText = JSON.stringify(s.settings);
      if (settingsText !== settingsShown) {
        settingsShown = settingsText;
        fill(settingsBox, settingsView(q, s.settings));
      }
      if (history) {
        samplesShown = history.samples.length;
        const x = history.samples.map((p) => p.at / 1000);
        depth.set([x, history.samples.map((p) => p.ready), history.samples.map((p) => p.delayed), history.samples.map((p) => p.leased), history.samples.map((p) => p.dead)]);
        rates.set([x, history.samples.map((p) => p.published_per_s), history.samples.map((p) => p.completed_per_s), history.samples.map((p) => p.failed_per_s)]);
        fill(etaLine, etaCheckText(history));
      }
    },
  };
}

/** Keys of a fair queue shown by most jobs waiting, and by most leased. */
const KEYS_SHOWN = 20;

/**
 * The Keys section of a queue's page, and show(answer) that fills it from GET q/fairness: for a fair queue the
 * number of keys waiting and leased and the keys with most jobs waiting and leased, with each one's share of the
 * waiting jobs, effective weight and limits, state, and pause or resume (POST q/keys/{key}/pause|resume) for a
 * token that may manage; for another queue one line saying fairness is off.
 */
function keysSection(q) {
  const summary = h('p', { class: 'muted', id: 'keys-summary' });
  const byWaiting = h('tbody', { id: 'keys-waiting-body' });
  const byLeased = h('tbody', { id: 'keys-leased-body' });
  const columns = ['Key', 'Waiting', 'Share of waiting', 'Leased', 'Weight', 'Concurrency', 'Rate', 'Max waiting', 'State', ''];
  const table = (id, caption, body) => h('div', { class: 'table-wrap' }, h('table', { id },
    h('caption', null, caption), h('thead', null, h('tr', null, columns.map((t) => h('th', { scope: 'col' }, t)))), body));
  const tables = h('div', { id: 'keys-tables' }, table('keys-waiting', 'Most jobs waiting', byWaiting), table('keys-leased', 'Most jobs leased', byLeased));
  const part = section('Keys', summary, tables);
  part.id = 'keys';
  const show = (answer) => {
    if (!answer.fair) {
      fill(summary, 'Fairness is off: this queue serves its jobs in arrival order, whatever their key.');
      tables.hidden = true;
      return;
    }
    tables.hidden = false;
    fill(summary, num(answer.keys_waiting) + ' keys with jobs waiting, ' + num(answer.keys_leased) + ' with jobs leased; '
      + num(answer.waiting) + ' jobs waiting in all.');
    fillKeys(q, byWaiting, answer.by_waiting, 'No key has jobs waiting.');
    fillKeys(q, byLeased, answer.by_leased, 'No key has jobs leased.');
  };
  return { section: part, show };
}

function fillKeys(q, body, keys, empty) {
  fill(
    body,
    keys.length === 0 ? h('tr', null, h('td', { attrs: { colspan: 10 }, class: 'muted' }, empty)) : null,
    keys.map((k) => {
      const named = k.key !== '';
      const path = q + '/keys/' + seg(k.key);
      const action = named && can('manage')
        ? h('button', { type: 'button', class: 'small', data: { keyAction: k.key }, on: { click: (e) => act(e.currentTarget, () => post(path + (k.paused ? '/resume' : '/pause')), (k.paused ? 'Resumed key ' : 'Paused key ') + k.key + '.') } }, k.paused ? 'Resume' : 'Pause')
        : null;
      const e = k.effective;
      return h('tr', { data: { key: k.key } },
        h('td', { class: 'text-cell' }, named ? k.key : h('span', { class: 'muted' }, '(no key)')),
        h('td', { data: { col: 'waiting' } }, num(k.waiting)),
        h('td', { data: { col: 'share' } }, k.share_percent === null ? '–' : num(k.share_percent) + ' %'),
        h('td', { data: { col: 'leased' } }, num(k.leased)),
        h('td', { data: { col: 'weight' } }, num(e.weight)),
        h('td', null, e.concurrency ? num(e.concurrency) : 'none'),
        h('td', null, e.rate ? num(e.rate) + ' per ' + duration(e.rate_period_ms) : 'none'),
        h('td', null, e.max_waiting ? num(e.max_waiting) : 'none'),
        h('td', { data: { col: 'state' } }, k.paused ? badge('paused', 'paused') : badge('served', 'open')),
        h('td', null, action),
      );
    }),
  );
}

/** Most schedules whose next ticks the queue page reads (one call each, every refresh). */
const SCHEDULES_WITH_TICKS = 20;

/** A schedule's time (epoch ms) as the page shows times. */
function tickTime(ms) {
  return ms == null ? '–' : time(ms);
}

function scheduleBadge(state) {
  return badge(state, state === 'active' ? 'open' : state === 'paused' ? 'paused' : '');
}

function outcomeBadge(outcome) {
  const label = outcome === 'skipped_missed' ? 'skipped (missed)' : outcome;
  return badge(label, outcome === 'published' ? 'open' : 'paused');
}

/**
 * The Schedules section of a queue's or an endpoint's page, and show(answer) that fills it from GET base/schedules:
 * when each ticks, its state, next ticks, last runs (linkRun(text, id) opens a run's job or task), pause and resume.
 * A schedule's next ticks are read again only when its next tick or version moved.
 */
function schedulesSection(base, linkRun) {
  const body = h('tbody', { id: 'schedules-body' });
  const note = h('p', { class: 'muted', id: 'schedules-note' });
  const cache = new Map(); // the next ticks read, by schedule, while its next tick stands
  const part = section('Schedules', h('div', { class: 'table-wrap' }, h('table', { id: 'schedules' },
    h('thead', null, h('tr', null, ['Schedule', 'When', 'Zone', 'State', 'Next 5 ticks', 'Last runs', ''].map((t) => h('th', { scope: 'col' }, t)))), body)), note);
  return { section: part, show: (answer) => showSchedules(base, linkRun, answer, body, note, cache) };
}

async function showSchedules(q, linkRun, answer, body, note, cache) {
  if (!answer) {
    fill(body);
    fill(note, 'The schedules here cannot be read with this token, or the queue is one Lineup uses itself.');
    return;
  }
  const list = answer.schedules;
  const ticks = await Promise.all(
    list.map((sc, i) => {
      if (sc.state !== 'active') return Promise.resolve([]);
      if (i >= SCHEDULES_WITH_TICKS) return Promise.resolve(null);
      const stand = sc.next_tick_at + ' ' + sc.version;
      const known = cache.get(sc.name);
      if (known && known.stand === stand) return Promise.resolve(known.ticks);
      return get(q + '/schedules/' + seg(sc.name) + '/next?count=5').then(
        (n) => {
          cache.set(sc.name, { stand, ticks: n.ticks_at });
          return n.ticks_at;
        },
        () => null,
      );
    }),
  );
  const mayAct = can('publish') || can('manage');
  fill(note, list.length === 0 ? 'No recurring schedule here.' : 'Times in this browser\'s zone; a cron expression is read in its own zone.');
  fill(
    body,
    list.map((sc, i) => {
      const path = q + '/schedules/' + seg(sc.name);
      const paused = sc.state === 'paused';
      const action = mayAct && sc.state !== 'ended'
        ? h('button', { type: 'button', class: 'small', data: { scheduleAction: sc.name }, on: { click: (e) => act(e.currentTarget, () => post(path + (paused ? '/resume' : '/pause')), (paused ? 'Resumed ' : 'Paused ') + sc.name + '.') } }, paused ? 'Resume' : 'Pause')
        : null;
      const next = ticks[i];
      return h('tr', { data: { schedule: sc.name } },
        h('td', null, sc.name),
        h('td', { data: { col: 'when' } }, sc.cron !== null ? h('code', null, sc.cron) : 'every ' + duration(sc.every_ms)),
        h('td', null, sc.zone || '–'),
        h('td', { data: { col: 'state' } }, scheduleBadge(sc.state)),
        h('td', { data: { col: 'next' } }, next === null ? '…' : next.length === 0 ? '–' : h('ul', { class: 'ticks' }, next.map((t) => h('li', null, tickTime(t))))),
        h('td', { data: { col: 'runs' } }, sc.history.length === 0 ? 'none yet' : h('ul', { class: 'ticks' }, sc.history.slice(0, 5).map((r) =>
          h('li', null, outcomeBadge(r.outcome), ' ', r.outcome === 'published' ? linkRun(tickTime(r.tick_at), r.job_id) : tickTime(r.tick_at))))),
        h('td', null, action),
      );
    }),
  );
}

function etaCheckText(history) {
  const c = history.eta_check;
  const base = 'One reading every ' + duration(history.interval_ms) + ', ' + history.samples.length + ' in the last ' + duration(history.window_ms) + '. ';
  if (!c || c.checked === 0) return base + 'ETA accuracy: not measured yet (no line was served through in the window).';
  return base + 'ETA of the last in line was off by ' + num(c.mean_error_percent) + ' % on average over ' + c.checked + ' readings (latest: estimated ' + duration(c.last_estimate_ms) + ', took ' + duration(c.last_actual_ms) + ').';
}

const EDITABLE = [
  ['rate_limit', 'Rate limit (leases per period, 0 = none)'],
  ['rate_period_ms', 'Rate period (ms)'],
  ['concurrency_limit', 'Concurrency limit (0 = none)'],
  ['max_attempts', 'Max attempts'],
  ['ttr_ms', 'Time to run (ms)'],
];

function settingsView(q, settings) {
  const rows = Object.entries(settings).map(([k, v]) =>
    h('tr', { data: { setting: k } }, h('th', { scope: 'row' }, k), h('td', null, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))),
  );
  const current = h('div', { class: 'table-wrap' }, h('table', { class: 'settings' }, h('tbody', null, rows)));
  if (!can('manage')) return current;
  const inputs = EDITABLE.map(([key, label]) => {
    const input = h('input', { type: 'number', id: 'set-' + key, value: settings[key], min: 0, step: 1 });
    return [key, h('label', { class: 'field' }, h('span', null, label), input), input];
  });
  const form = h('form', { class: 'settings-form', id: 'settings-form' }, inputs.map((i) => i[1]), h('button', { type: 'submit' }, 'Save changes'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const change = {};
    for (const [key, , input] of inputs) {
      const value = Number(input.value);
      if (input.value !== '' && value !== settings[key]) change[key] = value;
    }
    if (Object.keys(change).length === 0) {
      say('Nothing changed.');
      return;
    }
    act(form.querySelector('button'), () => patch(q, change), 'Saved: ' + Object.entries(change).map(([k, v]) => k + ' = ' + v).join(', ') + '.');
  });
  return [current, form];
}

// ---- a job ----

const FINISHED = new Set(['DONE', 'CANCELLED', 'EXPIRED', 'DEAD']);

function jobView(ns, name, id) {
  const q = '/v1/queues/' + seg(ns) + '/' + seg(name);
  const path = q + '/jobs/' + seg(id);
  setCrumbs(link(ns + '/' + name, 'queue', ns, name), h('span', null, id));
  const stateBadge = h('span', { id: 'job-state' });
  const actions = h('span', { class: 'actions' });
  const fields = h('div', { id: 'job-fields' });
  const payload = h('pre', { class: 'payload', id: 'payload' });
  const result = h('pre', { class: 'payload', id: 'result' });
  const timeline = h('ol', { class: 'timeline', id: 'timeline' });
  const download = h('button', { type: 'button', id: 'download', class: 'quiet' }, 'Download the exact bytes');
  download.addEventListener('click', () => act(download, async () => {
    const job = await get(path + '?payload_encoding=base64');
    const bytes = Uint8Array.from(atob(job.payload_base64), (c) => c.charCodeAt(0));
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
    const a = h('a', { href: url, download: (name + '-' + id + '.bin').replace(/[^A-Za-z0-9._-]/g, '_') });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }));
  let state = null;
  const cancel = confirmButton('Cancel job', 'Press again to cancel', (button) => act(button, () => del(path), 'Cancelled ' + id + '.'), { id: 'cancel' });
  const respawn = h('button', { type: 'button', id: 'respawn-job', on: { click: (e) => act(e.currentTarget, () => post(q + '/dead/respawn', { ids: [id] }), 'Respawned ' + id + '.') } }, 'Respawn');
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Job ', h('code', null, id)), stateBadge, actions),
    section('Fields', fields),
    section('Payload', payload, download),
    section('Result', result),
    section('Timeline', timeline, h('p', { class: 'muted' }, 'From the queue\'s event stream (its last 1,000 entries) and the job\'s own times.')),
  );
  return {
    async refresh() {
      const [job, events] = await Promise.all([get(path), get(path + '/events').catch(() => ({ events: [] }))]);
      state = job.state;
      fill(stateBadge, badge(job.state.toLowerCase(), job.state === 'DEAD' ? 'danger' : FINISHED.has(job.state) ? '' : 'open'));
      fill(
        actions,
        can('cancel') && !FINISHED.has(state) ? cancel : null,
        can('manage') && state === 'DEAD' ? respawn : null,
      );
      fill(
        fields,
        pairs([
          ['Queue', job.queue, 'queue'],
          ['Priority', num(job.priority), 'priority'],
          ['Attempts', num(job.attempts) + ' of ' + num(job.max_attempts), 'attempts'],
          ['Position', job.position >= 0 ? num(job.position) : '–', 'position'],
          ['ETA', job.state === 'READY' ? eta(job.eta_ms, job.eta_low_ms, job.eta_high_ms) : '–', 'eta'],
          ['Created', time(job.created_at), 'created'],
          ['Due', time(job.due_at), 'due'],
          ['Started', time(job.started_at), 'started'],
          ['Finished', time(job.finished_at), 'finished'],
          ['Lease ends', time(job.lease_deadline_at), 'lease'],
          ['Expires', time(job.expires_at), 'expires'],
          ['Time to run', duration(job.ttr_ms), 'ttr'],
          ['Last error', job.last_error || '–', 'error'],
        ]),
      );
      fill(payload, preview(job.payload, job.payload_base64));
      fill(result, job.result === null && job.result_base64 === undefined ? '(none)' : preview(job.result, job.result_base64));
      const steps = events.events.map((e) => ({ at: e.at, what: e.kind }));
      const seen = new Set(steps.map((s) => s.what));
      if (!seen.has('published') && job.created_at) steps.push({ at: job.created_at, what: 'published' });
      if (job.finished_at && !steps.some((s) => s.at === job.finished_at)) {
        steps.push({ at: job.finished_at, what: job.state.toLowerCase() });
      }
      steps.sort((a, b) => a.at - b.at);
      fill(timeline, steps.map((s) => h('li', { data: { event: s.what } }, h('span', { class: 'when' }, time(s.at)), ' ', h('strong', null, s.what))));
    },
  };
}

// ---- an endpoint and its tasks ----

function endpointView(ns, name) {
  const path = '/v1/endpoints/' + seg(ns) + '/' + seg(name);
  const queueName = 'dispatch.' + name;
  const q = '/v1/queues/' + seg(ns) + '/' + seg(queueName);
  setCrumbs(h('span', null, 'endpoint ' + ns + '/' + name));
  const head = h('span', { id: 'endpoint-state' });
  const live = h('div', { id: 'endpoint-live' });
  const limits = h('div', { id: 'endpoint-limits' });
  const dead = h('div', { id: 'endpoint-dead' });
  const findInput = h('input', { id: 'find-task', placeholder: 'task id', autocomplete: 'off', attrs: { 'aria-label': 'Task id' } });
  const findForm = h('form', { class: 'inline' }, findInput, h('button', { type: 'submit' }, 'Open task'));
  findForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = findInput.value.trim();
    if (id) location.hash = '#/task/' + [ns, name, id].map(seg).join('/');
  });
  const schedulesPart = schedulesSection(path, (text, id) => link(text, 'task', ns, name, id));
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Endpoint ', ns + '/' + name), head),
    section('Now', live),
    section('Failed tasks (out of attempts)', dead),
    schedulesPart.section,
    section('Limits', limits),
    section('Find a task', findForm),
  );
  let tick = 0;
  let history = null;
  return {
    async refresh() {
      // The endpoint's queue is Lineup's own: its counts and history are readable, its tasks are
      // read through the endpoint's routes.
      const [e, s, hist, d, schedules] = await Promise.all([
        get(path),
        get(q).catch(() => null),
        tick % 3 === 0 ? get(q + '/history').catch(() => null) : Promise.resolve(null),
        tick++ % 3 === 0 ? get(path + '/dead?count=20').catch(() => null) : Promise.resolve(null),
        get(path + '/schedules').catch(() => null),
      ]);
      await schedulesPart.show(schedules);
      if (hist) history = hist;
      if (d) {
        fill(
          dead,
          d.total === 0
            ? h('p', { class: 'muted' }, 'None.')
            : h('ul', null, d.tasks.map((t) => h('li', { data: { task: t.id } }, link(t.id, 'task', ns, name, t.id), ' ', t.finished_at ? time(t.finished_at) : ''))),
          d.total > d.tasks.length ? h('p', { class: 'muted' }, num(d.total) + ' in all; the oldest ' + d.tasks.length + ' shown') : null,
        );
      }
      fill(head, breakerBadge(e.circuit_breaker_state.state), e.paused ? badge('paused', 'paused') : null);
      const perSecond = e.rate ? e.rate / (e.period_ms / 1000) : 0;
      fill(
        live,
        pairs([
          ['Circuit', e.circuit_breaker_state.state + (e.circuit_breaker_state.probe_at ? ', next probe ' + time(e.circuit_breaker_state.probe_at) : ''), 'circuit'],
          ['In flight', meter(e.tasks.running, e.adaptive && e.adaptive.limit ? e.adaptive.limit : e.concurrency), 'in-flight'],
          e.adaptive ? ['Adaptive limit', adaptiveText(e.adaptive), 'adaptive'] : null,
          ['Served per second', perSecond ? [num(e.service_rate), ' against a limit of ', num(perSecond)] : num(e.service_rate), 'rate'],
          ['Queued', num(e.tasks.queued), 'queued'],
          ['Failed (dead)', num(e.tasks.failed), 'failed'],
          ['Last in line served in', s ? eta(s.drain_eta_ms, s.drain_eta_low_ms, s.drain_eta_high_ms) : '–', 'drain'],
          ['Measured ETA error', history ? etaErrorText(history) : '–', 'eta-error'],
        ]),
      );
      fill(
        limits,
        pairs([
          ['Base URL', e.base_url, 'base-url'],
          ['Rate', e.rate ? num(e.rate) + ' per ' + duration(e.period_ms) + (e.burst ? ', burst ' + num(e.burst) : '') : 'no limit', 'rate-limit'],
          ['Concurrency', e.concurrency ? num(e.concurrency) : 'no limit', 'concurrency'],
          ['Attempt timeout', duration(e.attempt_timeout_ms), 'attempt-timeout'],
          ['Max attempts', num(e.max_attempts), 'max-attempts'],
          ['Line timeout', duration(e.line_timeout_ms), 'line-timeout'],
          ['Retention', duration(e.retention_ms), 'retention'],
          ['Circuit breaker', e.circuit_breaker ? e.circuit_breaker.failures + ' failures, ' + duration(e.circuit_breaker.cooldown_ms) + ' cool-down' : '–', 'breaker'],
        ]),
      );
    },
  };
}

// An endpoint's adaptive concurrency: the limit in force within its bounds, why and when it last moved, and a
// Retry-After's hold (docs/adaptive.md).
function adaptiveText(a) {
  const limit = a.limit == null ? '–' : num(a.limit);
  const why = a.reason ? ' (' + a.reason + (a.moved_at ? ', ' + time(a.moved_at) : '') + ')' : '';
  const hold = a.hold_until ? ', held until ' + time(a.hold_until) : '';
  return limit + ' of ' + num(a.min) + '–' + num(a.max) + why + hold;
}

function etaErrorText(history) {
  const c = history.eta_check;
  if (!c || c.checked === 0) return 'not measured yet';
  return num(c.mean_error_percent) + ' % mean over ' + c.checked + ' readings of the last ' + duration(history.window_ms);
}

function taskView(ns, endpoint, id) {
  const path = '/v1/endpoints/' + seg(ns) + '/' + seg(endpoint) + '/tasks/' + seg(id);
  setCrumbs(link('endpoint ' + ns + '/' + endpoint, 'endpoint', ns, endpoint), h('span', null, id));
  const head = h('span', { id: 'task-state' });
  const actions = h('span', { class: 'actions' });
  const fields = h('div', { id: 'task-fields' });
  const cancel = confirmButton('Cancel task', 'Press again to cancel', (button) => act(button, () => del(path), 'Cancelled ' + id + '.'), { id: 'cancel-task' });
  fill(main, h('div', { class: 'title-line' }, h('h1', null, 'Task ', h('code', null, id)), head, actions), section('Fields', fields));
  return {
    async refresh() {
      // A peek: the dashboard's look does not start the task's read grace (docs/dispatch.md).
      const t = await get(path + '?peek=true');
      fill(head, badge(String(t.status), t.status === 'failed' ? 'danger' : 'open'));
      fill(actions, can('cancel') && (t.status === 'queued' || t.status === 'running') ? cancel : null);
      fill(fields, pairs(Object.entries(t).map(([k, v]) => [k, typeof v === 'object' && v !== null ? preview(v) : v === null ? '–' : k.endsWith('_at') ? time(v) : String(v), k])));
    },
  };
}

// ---- a waiting room ----

function roomView(ns, name) {
  const path = '/v1/rooms/' + seg(ns) + '/' + seg(name);
  const queueName = 'room.' + name;
  const q = '/v1/queues/' + seg(ns) + '/' + seg(queueName);
  setCrumbs(h('span', null, 'room ' + ns + '/' + name));
  const head = h('span', { id: 'room-state' });
  const live = h('div', { id: 'room-live' });
  const settings = h('div', { id: 'room-settings' });
  const chartBox = h('div', { class: 'chart', id: 'admissions-chart' });
  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', null, 'Room ', ns + '/' + name), head),
    section('Now', live),
    section('Admissions, last 15 minutes', chartBox),
    section('Settings', settings),
  );
  const admissions = chart(chartBox, 'Per minute', [
    { label: 'admitted', color: '--c3' },
    { label: 'joined', color: '--c1' },
  ]);
  let tick = 0;
  let history = null;
  return {
    close() {
      admissions.close();
    },
    async refresh() {
      const [r, s, hist] = await Promise.all([
        get(path),
        get(q).catch(() => null),
        tick++ % 3 === 0 ? get(q + '/history').catch(() => null) : Promise.resolve(null),
      ]);
      if (hist) {
        history = hist;
        const x = [];
        const admitted = [];
        const joined = [];
        for (let i = 1; i < hist.samples.length; i++) {
          const a = hist.samples[i - 1];
          const b = hist.samples[i];
          const minutes = (b.at - a.at) / 60000;
          x.push(b.at / 1000);
          admitted.push(Math.max(0, (b.leased_total - a.leased_total) / minutes));
          joined.push(Math.max(0, (b.published - a.published) / minutes));
        }
        admissions.set([x, admitted, joined]);
      }
      const counters = (s && s.counters) || {};
      const lastMinute = history ? admittedLastMinute(history) : null;
      fill(head, r.suspended ? badge('suspended', 'paused') : badge('admitting', 'open'));
      fill(
        live,
        pairs([
          ['In line', num(r.waiting), 'waiting'],
          ['Active passes', meter(r.active, r.max_active), 'active'],
          ['Admitted in the last minute', lastMinute === null ? '–' : [num(lastMinute), ' (limit ', num(r.admit_per_minute), ' per minute)'], 'admitted'],
          ['Pre-queue', num(r.pre_queue), 'pre-queue'],
          ['Last in line admitted in', s ? eta(s.drain_eta_ms, s.drain_eta_low_ms, s.drain_eta_high_ms) : '–', 'drain'],
          ['Left or abandoned (tickets cancelled)', num(counters.cancelled || 0), 'abandoned'],
          ['Measured ETA error', history ? etaErrorText(history) : '–', 'eta-error'],
        ]),
      );
      fill(
        settings,
        pairs([
          ['Max active', num(r.max_active), 'max-active'],
          ['Admit per minute', num(r.admit_per_minute), 'admit-per-minute'],
          ['Pass lifetime', duration(r.pass_ttl_ms), 'pass-ttl'],
          ['Renewable', r.renewable ? 'yes' : 'no', 'renewable'],
          ['Queueing', r.queueing_method, 'method'],
          ['Abandonment grace', duration(r.grace_ms), 'grace'],
          ['Event start', time(r.event_start_at), 'event-start'],
        ]),
      );
    },
  };
}

function admittedLastMinute(history) {
  const samples = history.samples;
  if (samples.length < 2) return null;
  const last = samples[samples.length - 1];
  let first = samples[0];
  for (const s of samples) {
    if (last.at - s.at <= 60_000) {
      first = s;
      break;
    }
  }
  return last.leased_total - first.leased_total;
}

boot();
