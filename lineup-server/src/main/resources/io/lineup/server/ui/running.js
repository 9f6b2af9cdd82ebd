// A queue's jobs leased now (GET …/running, soonest lease deadline first, paged by cursor) and the
// consumers seen in the last minute (GET …/consumers). The lease deadline counts down from the
// server's figure at each refresh.

import { get } from '/ui/api.js';
import { ago, duration, h, num, time, update } from '/ui/dom.js';
import { link, section } from '/ui/parts.js';
import { cursorStack, query } from '/ui/paging.js';

/** Running jobs per page. */
export const RUNNING_SHOWN = 20;

/** "in 12 s", or "passed 3 s ago" once the deadline is behind (the job goes back to the line soon). */
export function countdown(deadline, now = Date.now()) {
  if (deadline === null || deadline === undefined) return '–';
  return deadline >= now ? 'in ' + duration(deadline - now) : 'passed ' + duration(now - deadline) + ' ago';
}

export function runningSection(q, ns, name, refreshNow) {
  const pages = cursorStack(refreshNow);
  const body = h('tbody', { id: 'running-body' });
  const pagerBox = h('div');
  const consumers = h('tbody', { id: 'consumers-body' });
  const running = section('Running now', h('div', { class: 'table-wrap' }, h('table', { id: 'running' },
    h('thead', null, h('tr', null, ['Job', 'Consumer', 'Attempt', 'Priority', 'Started', 'Lease deadline'].map((t) => h('th', { scope: 'col' }, t)))), body)), pagerBox);
  running.id = 'running-section';
  const seen = section('Consumers, last minute', h('div', { class: 'table-wrap' }, h('table', { id: 'consumers' },
    h('thead', null, h('tr', null, ['Consumer', 'Last seen', 'Waiting now', 'Leased', 'Acked', 'Leased per second'].map((t) => h('th', { scope: 'col' }, t)))), consumers)));
  seen.id = 'consumers-section';
  return {
    sections: [running, seen],
    async refresh() {
      const [r, c] = await Promise.all([
        get(q + '/running' + query({ limit: RUNNING_SHOWN, cursor: pages.cursor() })),
        get(q + '/consumers'),
      ]);
      const now = Date.now();
      update(
        body,
        r.jobs.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No job is leased now.')) : null,
        r.jobs.map((j) => h('tr', { key: j.id, data: { running: j.id } },
          h('td', null, link(j.id, 'job', ns, name, j.id)),
          h('td', { data: { col: 'consumer' } }, j.consumer || 'unknown'),
          h('td', { data: { col: 'attempt' } }, num(j.attempt) + ' of ' + num(j.max_attempts)),
          h('td', null, num(j.priority)),
          h('td', { data: { col: 'started' } }, h('span', { title: time(j.leased_at) }, ago(j.leased_at, now))),
          h('td', { data: { col: 'deadline' } }, countdown(j.lease_deadline_at, now)),
        )),
      );
      update(pagerBox, pages.controls('running', r.next_cursor, r.jobs.length));
      update(
        consumers,
        c.consumers.length === 0 ? h('tr', { key: 'none:' }, h('td', { attrs: { colspan: 6 }, class: 'muted' }, 'No consumer in the last minute.')) : null,
        c.consumers.map((k) => h('tr', { key: k.name, data: { consumer: k.name } },
          h('td', { class: 'text-cell' }, k.name),
          h('td', null, ago(k.last_seen_at, now)),
          h('td', { data: { col: 'waiting' } }, num(k.waiting)),
          h('td', { data: { col: 'leased' } }, num(k.leased_last_minute)),
          h('td', { data: { col: 'acked' } }, num(k.acked_last_minute)),
          h('td', { data: { col: 'rate' } }, num(k.leased_per_s)),
        )),
      );
    },
  };
}
