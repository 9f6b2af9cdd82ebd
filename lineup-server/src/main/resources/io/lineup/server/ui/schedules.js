// The Schedules section of a queue's or an endpoint's page: each recurring schedule's cron or
// interval, zone, state, next ticks and last runs, with pause and resume.

import { get, post, seg } from '/ui/api.js';
import { duration, h, time, update } from '/ui/dom.js';
import { act, badge, can, section } from '/ui/parts.js';

/** Most schedules whose next ticks the queue page reads (one call each, every refresh). */
export const SCHEDULES_WITH_TICKS = 20;

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
export function schedulesSection(base, linkRun) {
  const body = h('tbody', { id: 'schedules-body' });
  const note = h('p', { class: 'muted', id: 'schedules-note' });
  const cache = new Map(); // the next ticks read, by schedule, while its next tick stands
  const part = section('Schedules', h('div', { class: 'table-wrap' }, h('table', { id: 'schedules' },
    h('thead', null, h('tr', null, ['Schedule', 'When', 'Zone', 'State', 'Next 5 ticks', 'Last runs', ''].map((t) => h('th', { scope: 'col' }, t)))), body)), note);
  return { section: part, show: (answer) => showSchedules(base, linkRun, answer, body, note, cache) };
}

async function showSchedules(q, linkRun, answer, body, note, cache) {
  if (!answer) {
    update(body);
    update(note, 'The schedules here cannot be read with this token, or the queue is one Lineup uses itself.');
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
  update(note, list.length === 0 ? 'No recurring schedule here.' : 'Times in this browser\'s zone; a cron expression is read in its own zone.');
  update(
    body,
    list.map((sc, i) => {
      const path = q + '/schedules/' + seg(sc.name);
      const paused = sc.state === 'paused';
      const action = mayAct && sc.state !== 'ended'
        ? h('button', { type: 'button', class: 'small', data: { scheduleAction: sc.name }, on: { click: (e) => act(e.currentTarget, () => post(path + (paused ? '/resume' : '/pause')), (paused ? 'Resumed ' : 'Paused ') + sc.name + '.') } }, paused ? 'Resume' : 'Pause')
        : null;
      const next = ticks[i];
      return h('tr', { key: sc.name, data: { schedule: sc.name } },
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

