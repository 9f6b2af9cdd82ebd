// A queue's page (#/queue/{ns}/{queue}): counts, its history in two charts (15 minutes, an hour or a
// day), its jobs by state with actions, the jobs running now and the consumers of the last minute,
// the next jobs in line, the fairness keys, dead letters, schedules and settings. Built once; each refresh updates
// what changed in place. Lineup's own queues (an endpoint's, a room's) show their counts and history
// only: their jobs are read through the endpoint or room, their settings are not edited here.

import { del, get, patch, post, seg } from '/ui/api.js';
import { ago, duration, eta, fill, h, num, update } from '/ui/dom.js';
import { chart } from '/ui/chart.js';
import { say } from '/ui/notice.js';
import { keysSection, KEYS_SHOWN } from '/ui/keys.js';
import { schedulesSection } from '/ui/schedules.js';
import { jobsSection } from '/ui/jobs.js';
import { runningSection } from '/ui/running.js';
import { tabs } from '/ui/paging.js';
import { act, badge, session, breakerBadge, can, canRead, confirmButton, cut, link, reserved, section, shownText, stat } from '/ui/parts.js';

/** Characters of a dead letter's payload shown in its row; the rest is a press away. */
export const DEAD_PAYLOAD_CHARS = 120;

/** Dead letters listed, the oldest first. */
export const DEAD_SHOWN = 50;

/** Jobs of the line listed. */
export const LINE_SHOWN = 20;

/** The history ranges offered (GET …/history?range=), with their titles. */
export const RANGES = [
  ['15m', '15 minutes', 'Last 15 minutes'],
  ['1h', '1 hour', 'Last hour'],
  ['24h', '24 hours', 'Last 24 hours'],
];

export function queueView(main, ns, name) {
  const q = '/v1/queues/' + seg(ns) + '/' + seg(name);
  const own = reserved(name);
  const endpointName = name.startsWith('dispatch.') ? name.slice('dispatch.'.length) : null;
  const stateBadge = h('span', { id: 'queue-state' });
  const actions = h('span', { class: 'actions', id: 'queue-actions' });
  const stats = h('div', { class: 'stats', id: 'queue-stats' });
  const depthBox = h('div', { class: 'chart', id: 'depth-chart' });
  const rateBox = h('div', { class: 'chart', id: 'rate-chart' });
  const etaLine = h('p', { class: 'muted', id: 'eta-check' });
  const lineBody = h('tbody', { id: 'line-body' });
  const deadBody = h('tbody', { id: 'dead-body' });
  const deadTotal = h('span', { class: 'muted', id: 'dead-total' });
  const deadActions = h('div', { class: 'actions', id: 'dead-actions' });
  const settingsBox = h('div', { id: 'settings' });
  const schedulesPart = schedulesSection(q, (text, id) => link(text, 'job', ns, name, id));
  const keysPart = keysSection(q);
  const jobsPart = own ? null : jobsSection(q, ns, name);
  const runningPart = own ? null : runningSection(q, ns, name, () => session.refresh());
  let range = RANGES[0][0];
  let historyWanted = true; // the range changed: read the history at the next refresh
  const historyTitle = h('h2', { id: 'history-title' });
  const rangeBox = h('div', { id: 'history-ranges' });
  const drawRanges = () => {
    update(historyTitle, RANGES.find(([r]) => r === range)[2]);
    update(rangeBox, tabs('range', 'History range', RANGES.map(([r, label]) => [r, label]), range, (r) => {
      if (r === range) return;
      range = r;
      historyWanted = true;
      drawRanges();
      session.refresh();
    }));
  };
  drawRanges();
  const findInput = h('input', { id: 'find-id', placeholder: 'job id', autocomplete: 'off', attrs: { 'aria-label': 'Job id' } });
  const findForm = h('form', { class: 'inline', id: 'find-job' }, findInput, h('button', { type: 'submit' }, 'Open job'));
  findForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = findInput.value.trim();
    if (id) location.hash = '#/job/' + [ns, name, id].map(seg).join('/');
  });

  let paused = false;
  let deadCount = 0;
  const pauseButton = h('button', { type: 'button', id: 'pause' }, 'Pause');
  pauseButton.addEventListener('click', () =>
    act(pauseButton, () => patch(q, { paused: !paused }), () => (paused ? 'Resumed.' : 'Paused: leases return nothing until resumed.')),
  );
  const respawnAll = confirmButton('Respawn all', () => 'Press again to respawn ' + num(deadCount), (button) =>
    act(button, () => post(q + '/dead/respawn', { all: true }), (r) => 'Respawned ' + num(r.respawned) + ' jobs.'), { id: 'respawn-all' });
  const purgeAll = confirmButton('Purge all', () => 'Press again to purge ' + num(deadCount), (button) =>
    act(button, () => del(q + '/dead'), (r) => 'Purged ' + num(r.purged) + ' dead letters.'), { id: 'purge' });

  fill(
    main,
    h('div', { class: 'title-line' }, h('h1', { id: 'queue-name' }, ns + '/' + name), stateBadge, actions),
    own ? h('p', { class: 'muted', id: 'own-queue' }, 'This queue is one Lineup uses itself: its jobs are read through its '
      + (endpointName !== null ? 'endpoint' : 'room or endpoint') + ', and its settings are not changed here.') : null,
    stats,
    h('section', { class: 'card', id: 'history-section' }, historyTitle, rangeBox, h('div', { class: 'charts' }, depthBox, rateBox), etaLine),
    own ? null : jobsPart.section,
    own ? null : runningPart.sections,
    own ? null : section('Next in line', h('div', { class: 'table-wrap' }, h('table', { id: 'line' },
      h('thead', null, h('tr', null, ['Position', 'Job', 'Priority', 'Attempts', 'Waiting', 'ETA'].map((t) => h('th', { scope: 'col' }, t)))), lineBody)), findForm),
    own ? null : keysPart.section,
    own ? null : section('Dead letters', deadTotal, h('div', { class: 'table-wrap' }, h('table', { id: 'dead' },
      h('thead', null, h('tr', null, ['Job', 'Attempts', 'Died', 'Last error', 'Payload', h('span', { class: 'visually-hidden' }, 'Action')].map((t) => h('th', { scope: 'col' }, t)))), deadBody)), deadActions),
    own ? null : schedulesPart.section,
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
  let tick = 0;
  let samplesShown = 0;

  return {
    close() {
      depth.close();
      rates.close();
    },
    async refresh() {
      // The queue first: a queue that is not there (404) or not this token's (403) costs one read.
      const s = await get(q);
      // The history changes every 5 s; read it every third time, or every time while it is short.
      const withHistory = tick++ % 3 === 0 || samplesShown < 2 || historyWanted;
      const askedRange = range;
      historyWanted = false;
      const [line, keys, dead, history, schedules, endpoint] = await Promise.all([
        own ? null : get(q + '/line?count=' + LINE_SHOWN),
        own ? null : get(q + '/fairness?limit=' + KEYS_SHOWN),
        !own && canRead() ? get(q + '/dead?count=' + DEAD_SHOWN) : null,
        withHistory ? get(q + '/history?range=' + askedRange) : null,
        own ? null : get(q + '/schedules').catch(() => null),
        endpointName !== null && canRead() ? get('/v1/endpoints/' + seg(ns) + '/' + seg(endpointName)).catch(() => null) : null,
        own ? null : runningPart.refresh(),
        own ? null : jobsPart.refresh(s),
      ]);
      paused = Boolean(s.settings.paused);
      update(
        stateBadge,
        paused ? badge('paused', 'paused') : badge('open', 'open'),
        endpoint ? [' ', breakerBadge(endpoint.circuit_breaker_state.state)] : null,
      );
      fill(pauseButton, paused ? 'Resume' : 'Pause');
      // Offered once the queue is known to be there, and never on Lineup's own queues.
      if (can('manage') && !own && actions.childElementCount === 0) fill(actions, pauseButton);
      update(
        stats,
        stat('ready', num(s.counts.ready), 'ready'),
        stat('delayed', num(s.counts.delayed), 'delayed'),
        stat('leased', num(s.counts.leased), 'leased'),
        stat('dead', num(s.counts.dead), 'dead'),
        stat('finished, kept', num(s.counts.finished), 'finished'),
        stat('served per second', num(s.service_rate), 'rate'),
        stat('last in line served in', s.drain_eta_ms === null ? '–' : duration(s.drain_eta_ms), 'drain'),
      );
      if (line) {
        update(
          lineBody,
          line.jobs.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'Nobody in line.')) : null,
          line.jobs.map((j) =>
            h('tr', { key: j.id, data: { job: j.id } },
              h('td', null, num(j.position)),
              h('td', null, link(j.id, 'job', ns, name, j.id)),
              h('td', null, num(j.priority)),
              h('td', null, num(j.attempts)),
              h('td', null, ago(j.created_at)),
              h('td', null, paused ? 'paused' : eta(j.eta_ms, j.eta_low_ms, j.eta_high_ms)),
            ),
          ),
        );
      }
      if (dead) showDead(dead);
      else if (!own) update(deadTotal, 'Dead letters need a token with the manage or read scope.');
      if (keys) keysPart.show(keys);
      if (!own) await schedulesPart.show(schedules);
      update(settingsBox, settingsView(q, s.settings, !own && can('manage')));
      if (history && askedRange === range) {
        samplesShown = history.samples.length;
        const x = history.samples.map((p) => p.at / 1000);
        depth.set([x, history.samples.map((p) => p.ready), history.samples.map((p) => p.delayed), history.samples.map((p) => p.leased), history.samples.map((p) => p.dead)]);
        rates.set([x, history.samples.map((p) => p.published_per_s), history.samples.map((p) => p.completed_per_s), history.samples.map((p) => p.failed_per_s)]);
        update(etaLine, etaCheckText(history));
      }
    },
  };

  function showDead(dead) {
    deadCount = dead.total;
    update(deadTotal, num(dead.total) + ' dead' + (dead.total > dead.jobs.length ? ' (the oldest ' + dead.jobs.length + ' shown)' : ''));
    update(
      deadBody,
      dead.jobs.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No dead letters.')) : null,
      dead.jobs.map((d) =>
        h('tr', { key: d.id, data: { dead: d.id } },
          h('td', null, link(d.id, 'job', ns, name, d.id)),
          h('td', null, num(d.attempts)),
          h('td', null, ago(d.died_at)),
          h('td', { class: 'text-cell', data: { col: 'error' } }, d.last_error || ''),
          h('td', { class: 'text-cell', data: { col: 'payload' } }, cut(shownText(d.payload, d.payload_base64), DEAD_PAYLOAD_CHARS)),
          h('td', null, can('manage')
            ? h('button', { type: 'button', class: 'small', data: { respawn: d.id }, on: { click: (e) => act(e.currentTarget, () => post(q + '/dead/respawn', { ids: [d.id] }), 'Respawned ' + d.id + '.') } }, 'Respawn')
            : null),
        ),
      ),
    );
    if (can('manage')) {
      if (dead.total > 0 && deadActions.childElementCount === 0) fill(deadActions, respawnAll, purgeAll);
      else if (dead.total === 0 && deadActions.childElementCount > 0) fill(deadActions);
    }
  }
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

/**
 * The settings as a table and, when editable, a form. Each input holds the server's value in
 * data-server: a refresh changes an input only while it still shows that value, so what the user
 * typed stays until saved.
 */
function settingsView(q, settings, editable) {
  const rows = Object.entries(settings).map(([k, v]) =>
    h('tr', { key: k, data: { setting: k } }, h('th', { scope: 'row' }, k), h('td', null, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))),
  );
  const current = h('div', { class: 'table-wrap' }, h('table', { class: 'settings' }, h('tbody', null, rows)));
  if (!editable) return current;
  const fields = EDITABLE.map(([key, label]) => {
    const value = settings[key] === null || settings[key] === undefined ? '' : String(settings[key]);
    const input = h('input', { type: 'number', id: 'set-' + key, name: key, value, min: 0, step: 1, data: { server: value } });
    return h('label', { class: 'field' }, h('span', null, label), input);
  });
  const submit = (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const change = {};
    for (const [key] of EDITABLE) {
      const input = form.elements[key];
      if (input.value !== '' && input.value !== input.dataset.server) change[key] = Number(input.value);
    }
    if (Object.keys(change).length === 0) {
      say('Nothing changed.');
      return;
    }
    act(form.querySelector('button'), () => patch(q, change), 'Saved: ' + Object.entries(change).map(([k, v]) => k + ' = ' + v).join(', ') + '.');
  };
  return [current, h('form', { class: 'settings-form', id: 'settings-form', on: { submit } }, fields, h('button', { type: 'submit' }, 'Save changes'))];
}
